import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { islandFiles } from '../../src/client/build';
import { islands } from '../../islands';
import { testBuildDir } from '../helpers/app';

const meta = JSON.parse(readFileSync(path.join(testBuildDir, 'meta.json'), 'utf8')) as {
  outputs: Record<string, { entryPoint?: string; inputs: Record<string, unknown> }>;
};
const manifest = JSON.parse(readFileSync(path.join(testBuildDir, 'manifest.json'), 'utf8'));

describe('asset build', () => {
  it('puts React in exactly one shared chunk, not in an island entry or boot.js', () => {
    const withReactDom = Object.entries(meta.outputs).filter(([, o]) =>
      Object.keys(o.inputs).some((i) => i.includes('node_modules/react-dom/')),
    );
    expect(withReactDom).toHaveLength(1);
    const [file, output] = withReactDom[0];
    expect(output.entryPoint).toBeUndefined();
    expect(file).toContain('/chunks/');
  });

  it('keeps React out of boot.js', () => {
    const boot = Object.values(meta.outputs).find((o) => o.entryPoint?.endsWith('src/client/boot.ts'))!;
    expect(Object.keys(boot.inputs).some((i) => i.includes('node_modules/react'))).toBe(false);
  });

  it('writes a manifest with hashed files, each present with gzip and brotli copies', () => {
    expect(manifest.boot).toMatch(/^\/static\/build\/boot-[A-Z0-9]+\.js$/);
    expect(manifest.htmx).toMatch(/^\/static\/build\/htmx-[A-Z0-9]+\.js$/);
    expect(manifest.css).toMatch(/^\/static\/build\/app-[A-Z0-9]+\.css$/);
    expect(Object.keys(manifest.islands)).toEqual(expect.arrayContaining(['Counter', 'Greeting']));
    const files = readdirSync(testBuildDir, { recursive: true }) as string[];
    for (const url of [manifest.boot, manifest.htmx, manifest.css, manifest.islands.Counter.src]) {
      const name = url.replace('/static/build/', '');
      expect(files).toEqual(expect.arrayContaining([name, `${name}.gz`, `${name}.br`]));
    }
  });

  it('ships htmx 2.x from our own files', () => {
    const htmx = readFileSync(path.join(testBuildDir, manifest.htmx.replace('/static/build/', '')), 'utf8');
    expect(htmx).toMatch(/version:\s*"2\./);
  });
});

describe('island registry', () => {
  it('matches the files in islands/', () => {
    const files = islandFiles(path.resolve(import.meta.dirname, '../../islands'))
      .map((f) => f.name)
      .sort();
    expect(Object.keys(islands).sort()).toEqual(files);
  });
});
