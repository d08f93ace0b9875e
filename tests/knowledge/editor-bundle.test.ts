import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { testBuildDir } from '../helpers/app';

interface Meta {
  outputs: Record<
    string,
    { imports: { path: string; kind: string }[]; entryPoint?: string; inputs: Record<string, unknown> }
  >;
}

const root = path.resolve(import.meta.dirname, '../..');
const meta = JSON.parse(readFileSync(path.join(testBuildDir, 'meta.json'), 'utf8')) as Meta;
const manifest = JSON.parse(readFileSync(path.join(testBuildDir, 'manifest.json'), 'utf8'));
const key = (url: string) =>
  Object.keys(meta.outputs).find(
    (f) => path.resolve(root, f) === path.join(testBuildDir, url.replace('/static/build/', '')),
  )!;

function closure(start: string[], dynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f) || !meta.outputs[f]) return;
    seen.add(f);
    for (const i of meta.outputs[f].imports)
      if (i.kind === 'import-statement' || (dynamic && i.kind === 'dynamic-import')) visit(i.path);
  };
  start.forEach(visit);
  return seen;
}
const hasMdx = (f: string) => Object.keys(meta.outputs[f].inputs).some((i) => i.includes('@mdxeditor/editor'));
const gz = (files: Iterable<string>) =>
  [...files].reduce((n, f) => n + gzipSync(readFileSync(path.resolve(root, f))).length, 0);

describe('editor bundle', () => {
  const editor = key(manifest.islands.DocumentEditor.src);

  it('keeps @mdxeditor/editor out of the editor island chunk: it arrives by import() after hydration', () => {
    const eager = closure([editor], false);
    expect([...eager].filter(hasMdx)).toEqual([]);
    const all = closure([editor], true);
    expect([...all].filter(hasMdx).length).toBeGreaterThan(0);
  });

  it('no other island can load @mdxeditor/editor', () => {
    for (const [name, entry] of Object.entries(manifest.islands) as [string, { src: string }][]) {
      if (name === 'DocumentEditor') continue;
      expect([...closure([key(entry.src)], true)].filter(hasMdx), name).toEqual([]);
    }
  });

  it('the whole editor route (boot, htmx, island, rich editor, lazy Ops AI) stays within 380 KiB gzip', () => {
    const files = closure([editor, ...(manifest.islands.OpsChat ? [key(manifest.islands.OpsChat.src)] : [])], true);
    const total =
      gz(files) +
      gzipSync(readFileSync(path.join(testBuildDir, manifest.boot.replace('/static/build/', '')))).length +
      gzipSync(readFileSync(path.join(testBuildDir, manifest.htmx.replace('/static/build/', '')))).length;
    console.log(`[editor] route JS: ${(total / 1024).toFixed(1)} KiB gzip`);
    expect(total).toBeLessThanOrEqual(380 * 1024);
  });
});

describe('category view bundle', () => {
  const editorOnly = ['form-model', 'form-markdown', 'skeletons', 'editor', 'options'].map(
    (m) => `src/knowledge/shared/${m}.ts`,
  );

  it("carries none of the editor's form model: the shared module is tree-shaken (package.json sideEffects)", () => {
    const files = closure([key(manifest.islands.CategoryView.src)], true);
    const inputs = [...files].flatMap((f) => Object.keys(meta.outputs[f].inputs));
    expect(inputs.filter((i) => editorOnly.includes(i))).toEqual([]);
    expect(inputs).toContain('src/knowledge/shared/spaces.ts');
  });
});
