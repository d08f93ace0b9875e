import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOptions, inputStamp, isStale } from '../../src/client/build';

const fixtureIslands = path.resolve(import.meta.dirname, '../fixtures/islands');
const dir = mkdtempSync(path.join(tmpdir(), 'opshub-stale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pretend finished build in its own folder whose only input is `input`. */
function builtFrom(input: string, islandDirs = [fixtureIslands]): string {
  const outdir = mkdtempSync(path.join(dir, 'build-'));
  writeFileSync(path.join(outdir, 'manifest.json'), '{}');
  const stamp = inputStamp([input], buildOptions(outdir, islandDirs).islandDirs);
  writeFileSync(path.join(outdir, 'inputs.json'), JSON.stringify(stamp));
  return outdir;
}

describe('build --if-stale', () => {
  it('rebuilds when an input changed, not when it was only touched', () => {
    const input = path.join(dir, 'input.ts');
    writeFileSync(input, 'export const a = 1;');
    const outdir = builtFrom(input);
    expect(isStale(buildOptions(outdir, [fixtureIslands]))).toBe(false);
    utimesSync(input, new Date(), new Date(Date.now() + 60_000));
    expect(isStale(buildOptions(outdir, [fixtureIslands]))).toBe(false);
    writeFileSync(input, 'export const a = 2;');
    expect(isStale(buildOptions(outdir, [fixtureIslands]))).toBe(true);
  });

  it('rebuilds when an island was added or removed, or the build never finished', () => {
    const input = path.join(dir, 'other.ts');
    writeFileSync(input, 'export {};');
    expect(isStale(buildOptions(builtFrom(input, []), [fixtureIslands]))).toBe(true);
    const unfinished = builtFrom(input);
    rmSync(path.join(unfinished, 'manifest.json'));
    expect(isStale(buildOptions(unfinished, [fixtureIslands]))).toBe(true);
  });
});
