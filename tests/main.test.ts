import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from './helpers/browser';

const root = path.resolve(import.meta.dirname, '..');

function startMain(env: Record<string, string>) {
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

describe('main', () => {
  it('serves on the embedded database, then exits 0 on SIGTERM within 10 s', async () => {
    const port = await freePort();
    const app = startMain({ PORT: String(port), DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opshub-main-')) });
    await app.listening;
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(res.status).toBe(200);
    const started = Date.now();
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);

  it('refuses to start on a bad variable with one line naming it', async () => {
    const app = startMain({ PORT: 'not-a-port' });
    expect(await app.exited).toBe(1);
    expect(app.output()).toContain('Invalid configuration: PORT');
    expect(app.output()).not.toContain('    at ');
  }, 30_000);
});
