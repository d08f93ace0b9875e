import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import of a project file by another: `type` when only types cross, `dynamic` for `import('…')`. */
export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
  dynamic: boolean;
}

/** A source file as the rules see it: its path from the repository root, its imports and its header comment. */
export interface SourceFile {
  file: string;
  /** The comments before the first statement. */
  header: string;
  imports: { specifier: string; typeOnly: boolean; dynamic: boolean }[];
}

/** The files of the graph and the edges between them (imports of packages are left out). */
export interface ImportGraph {
  files: Map<string, SourceFile>;
  edges: ImportEdge[];
}

const EXTENSIONS = ['.ts', '.tsx'];

/** Every .ts/.tsx file under the given folders, as repository-relative paths with forward slashes. */
export function listSourceFiles(root: string, folders: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      const rel = `${dir}/${name}`;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (EXTENSIONS.some((e) => name.endsWith(e)) && !name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const folder of folders) if (existsSync(path.join(root, folder))) walk(folder);
  return out.sort();
}

const isTypeOnlyImport = (node: ts.ImportDeclaration): boolean => {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    !!named &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
};

const isTypeOnlyExport = (node: ts.ExportDeclaration): boolean =>
  node.isTypeOnly ||
  (!!node.exportClause &&
    ts.isNamedExports(node.exportClause) &&
    node.exportClause.elements.length > 0 &&
    node.exportClause.elements.every((e) => e.isTypeOnly));

/** Parses one file's imports and re-exports (`import type` included) and its dynamic `import('…')` calls. */
export function parseSource(file: string, text: string): SourceFile {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const imports: SourceFile['imports'] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      imports.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnlyImport(node), dynamic: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      imports.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnlyExport(node), dynamic: false });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) imports.push({ specifier: arg.text, typeOnly: false, dynamic: true });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      imports.push({ specifier: node.argument.literal.text, typeOnly: true, dynamic: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const first = source.statements[0];
  const header = text.slice(0, first ? first.getStart(source) : text.length);
  return { file, header, imports };
}

/** The project file a relative specifier names (extension, /index and .js → .ts resolved), or undefined. */
export function resolveSpecifier(
  from: string,
  specifier: string,
  exists: (file: string) => boolean,
): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '');
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => `${base}/index${e}`)];
  return candidates.find(exists);
}

/** Builds the graph of the given sources: the edges between them, resolved by resolveSpecifier. */
export function buildGraph(sources: SourceFile[]): ImportGraph {
  const files = new Map(sources.map((s) => [s.file, s]));
  const edges: ImportEdge[] = [];
  for (const s of sources) {
    for (const imp of s.imports) {
      const to = resolveSpecifier(s.file, imp.specifier, (f) => files.has(f));
      if (to) edges.push({ from: s.file, to, typeOnly: imp.typeOnly, dynamic: imp.dynamic });
    }
  }
  return { files, edges };
}

/** Reads and parses every source file under the folders of the repository at `root`. */
export function readProjectGraph(root: string, folders: string[]): ImportGraph {
  const sources = listSourceFiles(root, folders).map((f) => parseSource(f, readFileSync(path.join(root, f), 'utf8')));
  return buildGraph(sources);
}
