import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/browser';

const root = path.resolve(import.meta.dirname, '../..');

describe('JOBS=inline (the default on the embedded database)', () => {
  it('the web process runs the scheduled jobs itself, and still exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'debug',
        PORT: String(port),
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opshub-inline-')),
        DATABASE_URL: '',
        JOBS: '',
        MAIL_CRON: '* * * * * *',
        HEALTH_CHECK_CRON: 'off',
        HEALTH_REPORT_CRON: 'off',
        TOKEN_EXPIRY_CRON: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no job ran: ${output}`)), 40_000);
        child.stdout.on('data', () => {
          if (output.includes('"job":"mail-delivery"') && output.includes('job ok')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
      });
      expect(output).toContain('"jobs":"inline"');
      const started = Date.now();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
