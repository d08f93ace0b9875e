import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const buildsDir = path.join(root, 'tests/.build');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Build folders of earlier runs that were killed before their teardown. */
function pruneDeadRuns(): void {
  if (!existsSync(buildsDir)) return;
  for (const name of readdirSync(buildsDir)) {
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (!pid || !alive(pid)) rmSync(path.join(buildsDir, name), { recursive: true, force: true });
  }
}

/**
 * Builds the test asset folder (app islands + fixture islands) once per run, in a folder of this run's own
 * (TEST_BUILD_DIR, inherited by the test workers), so two runs at once never rebuild each other's assets.
 */
export default function setup() {
  pruneDeadRuns();
  const dir = path.join(buildsDir, `run-${process.pid}`);
  execFileSync('npx', ['tsx', 'src/client/build.ts', '--outdir', dir, '--extra', 'tests/fixtures/islands'], {
    cwd: root,
    stdio: 'inherit',
  });
  process.env.TEST_BUILD_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
