import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The benches' server: the real entry point (src/main.ts) in a process of its own, as in production. */

const root = path.resolve(import.meta.dirname, '../..');

/** Starts src/main.ts on `port` with `env` (DATABASE_URL at least); resolves once /readyz answers. */
export async function startMain(
  port: number,
  env: Record<string, string>,
  readyWithinMs = 30_000,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      APP_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      LOG_LEVEL: 'warn',
      JOBS: 'off',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (const end = Date.now() + readyWithinMs; Date.now() < end; ) {
    if (child.exitCode !== null) throw new Error(`src/main.ts exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`src/main.ts did not become ready in ${readyWithinMs / 1000} s`);
}

/** SIGTERM, then wait for the exit (the server must not outlive the bench, whatever happened). */
export async function stopMain(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
