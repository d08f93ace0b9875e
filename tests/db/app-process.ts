import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/browser';

const root = path.resolve(import.meta.dirname, '../..');

export interface AppProcess {
  child: ChildProcess;
  base: string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** True while the process runs. */
  alive(): boolean;
  output(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | null>;
}

/** Runs `src/main.ts` as production does (one node process, no tsx wrapper) and waits until it listens. */
export async function startApp(env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      JOBS: 'off',
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opshub-app-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited ${child.exitCode}: ${output}`);
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() - started > 60_000) throw new Error(`the app did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    base,
    exited,
    alive,
    output: () => output,
    stop: async () => {
      if (alive()) child.kill('SIGTERM');
      return exited;
    },
  };
}
