import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Builds the test asset folder (app islands + fixture islands) once per run. */
export default function setup() {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync('npx', ['tsx', 'src/client/build.ts', '--outdir', 'tests/.build', '--extra', 'tests/fixtures/islands'], {
    cwd: root,
    stdio: 'inherit',
  });
}
