import { spawn } from 'node:child_process';
import path from 'node:path';

/** The project's entry points, each run as a process of its own (what `npm start` / `npm run …` run). */

const root = path.resolve(import.meta.dirname, '../..');

/** `src/main.ts` as `npm start` runs it (JOBS=off); `listening` resolves once it logs that it listens. */
export function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', JOBS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => output.includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  listening.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, listening, exited, output: () => output };
}

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command-line script of the project (`src/backups/cli.ts`, `src/admin/cli.ts`) to its end. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
