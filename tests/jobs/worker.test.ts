import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { enqueueMail } from '../../src/mail/outbox';
import { createTestDatabase, usingPostgres } from '../helpers/db';
import { urlOf, waitFor } from './support';

const root = path.resolve(import.meta.dirname, '../..');

function startWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'jobs/worker.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opshub-worker-')),
      HEALTH_CHECK_CRON: 'off',
      HEALTH_REPORT_CRON: 'off',
      TOKEN_EXPIRY_CRON: 'off',
      MAIL_CRON: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

describe('npm run worker', () => {
  it('refuses to start on the embedded database with one clear line and exit code 1', async () => {
    const worker = startWorker({ DATABASE_URL: '' });
    expect(await worker.exited).toBe(1);
    const lines = worker
      .stderr()
      .split('\n')
      .filter((l) => l.trim() && !l.includes('npm warn'));
    expect(lines).toEqual([
      'npm run worker needs DATABASE_URL: with the embedded database (PGlite) the jobs run inside the web process (JOBS=inline).',
    ]);
  }, 30_000);

  describe.skipIf(!usingPostgres())('against PostgreSQL', () => {
    if (!usingPostgres())
      console.info('[jobs] worker SIGTERM test skipped: the worker needs a real PostgreSQL (set TEST_DATABASE_URL)');

    it('on SIGTERM lets the running job finish, releases its lock and exits 0', async () => {
      const database = await createTestDatabase();
      let inFlight = false;
      const received: string[] = [];
      const smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, _session, cb) {
          inFlight = true;
          let raw = '';
          stream.on('data', (d) => (raw += d));
          // a slow receiver
          stream.on('end', () =>
            setTimeout(() => {
              received.push(raw);
              cb();
            }, 1500),
          );
        },
      });
      await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
      const port = (smtp.server.address() as AddressInfo).port;
      try {
        await enqueueMail(database.db, {
          dedupeKey: 'worker-test',
          to: 'ops@example.com',
          subject: 'Slow one',
          text: 'x',
          html: '<p>x</p>',
        });
        const worker = startWorker({
          DATABASE_URL: urlOf(database),
          MAIL_CRON: '* * * * * *',
          SMTP_URL: `smtp://127.0.0.1:${port}`,
        });
        try {
          await waitFor(() => inFlight, 20_000, 'the worker to start sending');
          const started = Date.now();
          worker.child.kill('SIGTERM');
          expect(await worker.exited).toBe(0);
          expect(Date.now() - started).toBeLessThan(10_000);
        } finally {
          worker.child.kill('SIGKILL');
        }
        expect(worker.stdout()).toContain('worker stopped');
        expect(received).toHaveLength(1);
        const [mail] = await queryRows<{ status: string; attempts: number }>(
          database.db,
          sql`select status, attempts from mail_outbox`,
        );
        expect(mail).toEqual({ status: 'sent', attempts: 1 });
        const runs = await queryRows<{ result: string }>(
          database.db,
          sql`select result from job_runs where job = 'mail-delivery'`,
        );
        expect(runs.length).toBeGreaterThan(0);
        expect(runs.filter((r) => r.result === 'running')).toEqual([]);
        const locks = await queryRows(
          database.db,
          sql`select 1 from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
        );
        expect(locks).toEqual([]);
      } finally {
        await new Promise<void>((r) => smtp.close(() => r()));
        await database.close();
      }
    }, 60_000);
  });
});
