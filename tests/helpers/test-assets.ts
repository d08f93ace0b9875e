import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build, buildOptions, isStale } from '../../src/client/build';
import { buildsDir, inUseByLiveRuns, isAlive, markInUse } from './run-dirs';

const fixtureIslands = path.resolve(import.meta.dirname, '../fixtures/islands');

const assetDirs = () =>
  existsSync(buildsDir) ? readdirSync(buildsDir).filter((name) => /^assets-\d+-\d+$/.test(name)) : [];
const builderPid = (name: string) => Number(name.split('-')[1]);
const finished = (dir: string) => existsSync(path.join(dir, 'manifest.json'));

/**
 * Deletes asset builds no live run serves that are stale or unfinished (their builder died); a build still being
 * made by a live run is left alone. Stale is judged by content, so a build whose inputs are back is kept.
 */
function pruneAssetDirs(keep: string): void {
  const inUse = inUseByLiveRuns('assets');
  for (const name of assetDirs()) {
    const dir = path.join(buildsDir, name);
    if (dir === keep || inUse.has(dir)) continue;
    const building = !finished(dir) && isAlive(builderPid(name));
    if (!building && (!finished(dir) || isStale(buildOptions(dir, [fixtureIslands])))) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * The test asset build (app islands + tests/fixtures/islands) for this run: a finished build in tests/.build whose
 * inputs are unchanged, else a new one. A build is never rewritten in place (a concurrent run may be serving it):
 * a new build gets a folder of its own, assets-PID-TIME, and the run folder records which one it uses.
 */
export async function testAssets(runDir: string): Promise<string> {
  const fresh = assetDirs()
    .map((name) => path.join(buildsDir, name))
    .find((dir) => finished(dir) && !isStale(buildOptions(dir, [fixtureIslands])));
  let dir = fresh;
  if (!dir) {
    dir = path.join(buildsDir, `assets-${process.pid}-${Date.now()}`);
    const start = Date.now();
    await build(buildOptions(dir, [fixtureIslands]));
    console.log(`test assets built into ${path.relative(process.cwd(), dir)} in ${Date.now() - start} ms`);
  }
  markInUse(runDir, 'assets', dir);
  pruneAssetDirs(dir);
  return dir;
}
