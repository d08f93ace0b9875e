/**
 * Builds the browser assets into static/build/: boot.js, one ESM entry per island (code-split, so React
 * sits in one shared chunk), htmx and app.css copied with content hashes, gzip + brotli copies, and
 * manifest.json. Usage: tsx src/client/build.ts [--if-stale] [--outdir DIR] [--extra ISLAND_DIR]…
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '../..');
const PUBLIC_PREFIX = '/static/build/';

/** Small scripts that only one page links (manifest.scripts.<name>), built alone like boot.js: no React, no shared chunk. */
const pageScripts: Record<string, string> = {
  /** /settings: Push notifications switch → permission, PushManager subscription, /api/notifications. */
  push: 'src/notifications/browser.ts',
  /** A document's read page: code blocks' copy buttons and headings' copy-link anchors. */
  reading: 'src/client/reading.ts',
  /** An item's comments: "Comment on selection" and @mention suggestions. */
  comments: 'src/comments/browser.ts',
};

export interface BuildOptions {
  outdir: string;
  islandDirs: string[];
  ifStale: boolean;
}

function parseArgs(argv: string[]): BuildOptions {
  const opts: BuildOptions = {
    outdir: path.join(root, 'static/build'),
    islandDirs: [path.join(root, 'islands')],
    ifStale: false,
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--if-stale') opts.ifStale = true;
    else if (argv[i] === '--outdir') opts.outdir = path.resolve(argv[++i]);
    else if (argv[i] === '--extra') opts.islandDirs.push(path.resolve(argv[++i]));
  }
  return opts;
}

/** Island files: islands/Name.tsx (not index.ts, not _lib/). */
export function islandFiles(dir: string): { name: string; file: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^[A-Z][A-Za-z0-9]*\.tsx$/.test(f))
    .map((f) => ({ name: f.replace(/\.tsx$/, ''), file: path.join(dir, f) }));
}

/** What a build read, so a later --if-stale can tell whether any of it changed: size, mtime and content hash. */
interface InputStamp {
  islands: string[];
  files: Record<string, { size: number; mtimeMs: number; sha256: string }>;
}

const STAMP = 'inputs.json';
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function islandNames(islandDirs: string[]): string[] {
  return islandDirs.flatMap((dir) => islandFiles(dir).map((f) => path.relative(root, f.file))).sort();
}

/**
 * The stamp of a finished build: every file esbuild read (metafile inputs), plus this script, package.json (its
 * sideEffects list decides what is tree-shaken) and package-lock.
 */
export function inputStamp(inputs: string[], islandDirs: string[]): InputStamp {
  const files: InputStamp['files'] = {};
  const all = [
    ...inputs.map((i) => path.resolve(i)),
    import.meta.filename,
    path.join(root, 'package.json'),
    path.join(root, 'package-lock.json'),
  ];
  for (const file of all) {
    if (!existsSync(file)) continue; // esbuild's virtual modules (island:Name, stub:language-data)
    const { size, mtimeMs } = statSync(file);
    files[path.relative(root, file)] = { size, mtimeMs, sha256: sha256(file) };
  }
  return { islands: islandNames(islandDirs), files };
}

/** True when outdir holds no finished build, or an input of its build changed or an island was added or removed. */
export function isStale(opts: Pick<BuildOptions, 'outdir' | 'islandDirs'>): boolean {
  const stampFile = path.join(opts.outdir, STAMP);
  if (!existsSync(path.join(opts.outdir, 'manifest.json')) || !existsSync(stampFile)) return true;
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as InputStamp;
  if (stamp.islands.join('\n') !== islandNames(opts.islandDirs).join('\n')) return true;
  return Object.entries(stamp.files).some(([rel, was]) => {
    const file = path.join(root, rel);
    if (!existsSync(file)) return true;
    const { size, mtimeMs } = statSync(file);
    if (size === was.size && mtimeMs === was.mtimeMs) return false;
    return size !== was.size || sha256(file) !== was.sha256; // touched but unchanged (a checkout) is not stale
  });
}

/** The options of a build into outdir of the app's islands plus extraIslandDirs. */
export function buildOptions(outdir: string, extraIslandDirs: string[] = []): BuildOptions {
  return { outdir, islandDirs: [path.join(root, 'islands'), ...extraIslandDirs], ifStale: false };
}

/** Each island entry wraps the component with the shared mount function. */
const islandEntryPlugin = (islands: Map<string, string>): esbuild.Plugin => ({
  name: 'island-entries',
  setup(build) {
    build.onResolve({ filter: /^island:/ }, (args) => ({ path: args.path.slice(7), namespace: 'island' }));
    build.onLoad({ filter: /.*/, namespace: 'island' }, (args) => ({
      contents: [
        `import Component from ${JSON.stringify(islands.get(args.path))};`,
        `import { mountIsland } from ${JSON.stringify(path.join(root, 'src/client/hydrate.ts'))};`,
        `export default (el, props, prefix, clientOnly) => mountIsland(Component, el, props, prefix, clientOnly);`,
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    }));
  },
});

/**
 * @codemirror/language-data only serves @mdxeditor/editor's code-block plugin, which the editor does not use;
 * its ~100 lazy language chunks would still be emitted (and slow every build), so it resolves to an empty list.
 */
const noLanguageData: esbuild.Plugin = {
  name: 'no-codemirror-language-data',
  setup(build) {
    build.onResolve({ filter: /^@codemirror\/language-data$/ }, () => ({ path: 'language-data', namespace: 'stub' }));
    build.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: 'export const languages = [];',
      loader: 'js',
    }));
  },
};

function hashedCopy(source: string, outdir: string, name: string, ext: string): string {
  const body = readFileSync(source);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10).toUpperCase();
  const file = `${name}-${hash}${ext}`;
  writeFileSync(path.join(outdir, file), body);
  return file;
}

function precompress(outdir: string): void {
  for (const entry of readdirSync(outdir, { recursive: true }) as string[]) {
    if (!/\.(js|css|json)$/.test(entry)) continue;
    const file = path.join(outdir, entry);
    const body = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
  }
}

/** CSS that an island's code imports (esbuild gathers it, also through import(), into the entry's cssBundle). */
function islandCss(outputs: esbuild.Metafile['outputs'], entry: string): string[] {
  const bundle = outputs[entry]?.cssBundle;
  return bundle && outputs[bundle]?.bytes ? [bundle] : [];
}

/** Builds every asset into opts.outdir (emptied first). */
export async function build(opts: BuildOptions): Promise<void> {
  const islands = new Map<string, string>();
  for (const dir of opts.islandDirs) for (const { name, file } of islandFiles(dir)) islands.set(name, file);

  rmSync(opts.outdir, { recursive: true, force: true });
  mkdirSync(opts.outdir, { recursive: true });

  const result = await esbuild.build({
    entryPoints: [...islands.keys()].map((name) => ({ in: `island:${name}`, out: name })),
    outdir: opts.outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2020',
    jsx: 'automatic',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [islandEntryPlugin(islands), noLanguageData],
    logLevel: 'warning',
  });

  // Built apart from the islands, so they share no chunk: boot.js (one small file on every page) and page scripts.
  const alone = (entryPoints: { in: string; out: string }[]) =>
    esbuild.build({
      entryPoints,
      outdir: opts.outdir,
      bundle: true,
      format: 'esm',
      minify: true,
      target: 'es2020',
      entryNames: '[name]-[hash]',
      metafile: true,
      logLevel: 'warning',
    });
  const boot = await alone([{ in: path.join(root, 'src/client/boot.ts'), out: 'boot' }]);
  const scripts = await alone(Object.entries(pageScripts).map(([out, file]) => ({ in: path.join(root, file), out })));

  const css = await esbuild.build({
    entryPoints: [path.join(root, 'static/app.css')],
    outdir: opts.outdir,
    entryNames: '[name]-[hash]',
    minify: true,
    metafile: true,
    logLevel: 'warning',
  });

  const url = (file: string) =>
    PUBLIC_PREFIX + path.relative(opts.outdir, path.resolve(root, file)).split(path.sep).join('/');
  const manifest = {
    css: url(Object.keys(css.metafile.outputs).find((f) => f.endsWith('.css'))!),
    boot: url(Object.keys(boot.metafile.outputs).find((f) => f.endsWith('.js'))!),
    htmx:
      PUBLIC_PREFIX + hashedCopy(path.join(root, 'node_modules/htmx.org/dist/htmx.min.js'), opts.outdir, 'htmx', '.js'),
    islands: {} as Record<string, { src: string; imports: string[]; css?: string[] }>,
    scripts: Object.fromEntries(
      Object.entries(scripts.metafile.outputs).flatMap(([file, o]) => {
        const name = Object.keys(pageScripts).find((n) => o.entryPoint?.endsWith(pageScripts[n]));
        return name ? [[name, url(file)]] : [];
      }),
    ),
  };
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (!output.entryPoint?.startsWith('island:')) continue;
    const imports = output.imports.filter((i) => i.kind === 'import-statement').map((i) => url(i.path));
    const css = islandCss(result.metafile.outputs, file).map(url);
    manifest.islands[output.entryPoint.slice(7)] = { src: url(file), imports, ...(css.length ? { css } : {}) };
  }
  const metafile = {
    inputs: { ...result.metafile.inputs, ...boot.metafile.inputs, ...scripts.metafile.inputs },
    outputs: { ...result.metafile.outputs, ...boot.metafile.outputs, ...scripts.metafile.outputs },
  };
  writeFileSync(path.join(opts.outdir, 'meta.json'), JSON.stringify(metafile));
  precompress(opts.outdir);
  const inputs = [...Object.keys(metafile.inputs), ...Object.keys(css.metafile.inputs)];
  writeFileSync(path.join(opts.outdir, STAMP), JSON.stringify(inputStamp(inputs, opts.islandDirs)));
  // Written last: a folder with a manifest is a finished build.
  writeFileSync(path.join(opts.outdir, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('build.ts')) {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.ifStale && !isStale(opts)) process.exit(0);
  const start = Date.now();
  await build(opts);
  console.log(`assets built into ${path.relative(root, opts.outdir)} in ${Date.now() - start} ms`);
}
