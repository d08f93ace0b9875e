import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Everything the test runs keep between runs (asset builds) or for one run (run-PID folders). */
export const buildsDir = path.resolve(import.meta.dirname, '../.build');

/** Whether a process of this machine with that id is still running. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The run folders (run-PID) of this machine's test runs still going, by pid. */
export function liveRuns(): Map<number, string> {
  const runs = new Map<number, string>();
  if (!existsSync(buildsDir)) return runs;
  for (const name of readdirSync(buildsDir)) {
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (pid && isAlive(pid)) runs.set(pid, path.join(buildsDir, name));
  }
  return runs;
}

/** Run folders of earlier runs that were killed before their teardown. */
export function pruneDeadRunDirs(): void {
  if (!existsSync(buildsDir)) return;
  for (const name of readdirSync(buildsDir)) {
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (pid && !isAlive(pid)) rmSync(path.join(buildsDir, name), { recursive: true, force: true });
  }
}

/** Records in the run folder that this run uses a shared file or folder of kind (so no other run deletes it). */
export function markInUse(runDir: string, kind: string, target: string): void {
  writeFileSync(path.join(runDir, `uses-${kind}`), target);
}

/** The shared files or folders of kind that live runs use. */
export function inUseByLiveRuns(kind: string): Set<string> {
  const used = new Set<string>();
  for (const runDir of liveRuns().values()) {
    const file = path.join(runDir, `uses-${kind}`);
    if (existsSync(file)) used.add(readFileSync(file, 'utf8').trim());
  }
  return used;
}
