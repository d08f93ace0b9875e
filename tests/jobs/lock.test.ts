import { sql } from 'drizzle-orm';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defineJob } from '../../jobs/define-job';
import { withJobLock } from '../../jobs/lock';
import { queryRows, type Database } from '../../src/db/client';
import { createTestDatabase, usingPostgres } from '../helpers/db';
import { secondWorkerDatabase, sleep, testScheduler, urlOf, waitFor } from './support';

const root = path.resolve(import.meta.dirname, '../..');

const open: Database[] = [];
afterEach(async () => {
  for (const d of open.splice(0).reverse()) await d.close().catch(() => {});
});

async function fresh() {
  const d = await createTestDatabase();
  open.push(d);
  return d;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function runs(d: Database, job: string) {
  return queryRows<{ result: string; n: number }>(
    d.db,
    sql`select result, count(*)::int as n from job_runs where job = ${job} group by result`,
  );
}

describe('job lock in one process (PGlite and PostgreSQL)', () => {
  it('a second run of a job that is still running is skipped, and recorded runs are ok', async () => {
    const d = await fresh();
    const gate = deferred();
    const started = deferred();
    const job = defineJob({
      name: 'test-slow',
      title: 'Slow',
      schedule: () => 'off',
      run: async () => {
        started.resolve();
        await gate.promise;
        return 'done';
      },
    });
    const scheduler = testScheduler(d, { jobs: [job] });
    const first = scheduler.runNow('test-slow');
    await started.promise;
    expect(await scheduler.runNow('test-slow')).toMatchObject({ status: 'skipped' });
    gate.resolve();
    expect(await first).toMatchObject({ status: 'ok', message: 'done' });
    expect(await scheduler.runNow('test-slow')).toMatchObject({ status: 'ok' });
    expect(await runs(d, 'test-slow')).toEqual([{ result: 'ok', n: 2 }]);
  });

  it('records a failing job as an error with its message and duration', async () => {
    const d = await fresh();
    const job = defineJob({
      name: 'test-fail',
      title: 'Fail',
      schedule: () => 'off',
      run: async () => {
        await sleep(20);
        throw new Error('SMTP said no');
      },
    });
    expect(await testScheduler(d, { jobs: [job] }).runNow('test-fail')).toMatchObject({
      status: 'error',
      message: 'SMTP said no',
    });
    const [row] = await queryRows<{ result: string; message: string; duration_ms: number; finished_at: Date | null }>(
      d.db,
      sql`select * from job_runs where job = 'test-fail'`,
    );
    expect(row).toMatchObject({ result: 'error', message: 'SMTP said no' });
    expect(row.duration_ms).toBeGreaterThanOrEqual(15);
    expect(row.finished_at).not.toBeNull();
  });
});

describe.skipIf(!usingPostgres())('two workers against one PostgreSQL', () => {
  if (!usingPostgres())
    console.info('[jobs] two-worker tests skipped: they need a real PostgreSQL (set TEST_DATABASE_URL)');

  it('two scheduler instances with separate connections run each scheduled slot once', async () => {
    const a = await fresh();
    const b = secondWorkerDatabase(a);
    open.push(b);
    const calls: { worker: string; slot: number }[] = [];
    const jobFor = (worker: string) =>
      defineJob({
        name: 'test-every-second',
        title: 'Every second',
        schedule: () => '* * * * * *',
        run: async ({ now }) => {
          calls.push({ worker, slot: now.getTime() });
          await sleep(150);
          return worker;
        },
      });
    const workerA = testScheduler(a, { jobs: [jobFor('a')] });
    const workerB = testScheduler(b, { jobs: [jobFor('b')] });
    workerA.start();
    workerB.start();
    await sleep(4_200);
    await Promise.all([workerA.stop(2_000), workerB.stop(2_000)]);

    const slots = calls.map((c) => c.slot);
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(new Set(slots).size).toBe(slots.length); // no slot ran twice
    expect(await runs(a, 'test-every-second')).toEqual([{ result: 'ok', n: calls.length }]);
  }, 20_000);

  it('a job held by one worker is skipped by the other; a crashed worker’s lock dies with its connection', async () => {
    const a = await fresh();
    const holder = spawn(process.execPath, ['--import', 'tsx', 'tests/jobs/fixtures/hold-lock.ts', 'mail-delivery'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: urlOf(a) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((r) => holder.once('exit', r));
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (d) => String(d).includes('locked') && resolve());
        holder.once('exit', (code) => reject(new Error(`lock holder exited ${code}`)));
      });
      expect(await withJobLock(a, 'mail-delivery', async () => 'ran')).toEqual({ acquired: false });
      expect(await testScheduler(a).runNow('mail-delivery')).toMatchObject({ status: 'skipped' });
      expect(await withJobLock(a, 'token-expiry', async () => 'other job')).toEqual({
        acquired: true,
        value: 'other job',
      });
      holder.kill('SIGKILL'); // one node process (no tsx wrapper): the worker crashes: no unlock, its connection just goes away
      await exited;
      await waitFor(
        async () => (await withJobLock(a, 'mail-delivery', async () => 'ran')).acquired,
        10_000,
        'the lock to be released',
      );
    } finally {
      holder.kill('SIGKILL');
    }
  }, 30_000);
});
