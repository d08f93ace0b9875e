import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { defineJob, type JobDefinition } from '../../jobs/define-job';
import { healthChecksJob } from '../../jobs/health-checks';
import { createScheduler } from '../../jobs/scheduler';
import type { Config } from '../../src/config';
import { queryRows, type Database } from '../../src/db/client';
import { servers } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { jobsOverview } from '../../src/jobs/overview';
import { createTestDatabase, usingPostgres } from '../helpers/db';
import { silentPort } from '../servers/loopback';
import { jobsConfig, secondWorkerDatabase, sleep, waitFor } from './support';

const open: Database[] = [];
afterEach(async () => {
  for (const d of open.splice(0).reverse()) await d.close().catch(() => {});
});

async function fresh() {
  const d = await createTestDatabase();
  open.push(d);
  return d;
}

/** A scheduler whose warnings the test reads. */
function watchedScheduler(database: Database, jobs: JobDefinition[], config: Config = jobsConfig()) {
  const warnings: string[] = [];
  const out = {
    write: (line: string) => {
      const entry = JSON.parse(line) as { level: number; msg: string };
      if (entry.level === 40) warnings.push(entry.msg);
    },
  };
  const logger = createLogger('warn', { format: 'json', out });
  return { scheduler: createScheduler({ database, config, logger, jobs }), warnings };
}

const runsOf = (d: Database, job: string) =>
  queryRows<{ result: string; message: string | null }>(
    d.db,
    sql`select result, message from job_runs where job = ${job} order by started_at`,
  );

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('a tick that finds the previous run still going', () => {
  it('the health round: a tick during a running round is recorded as skipped, with a warning, and shown on /admin/jobs', async () => {
    const d = await fresh();
    const silent = await silentPort('127.0.0.41');
    try {
      // Silent hosts: the round runs ~3 s (the probe timeout), so the next every-second tick meets it.
      await d.db.insert(servers).values(
        Array.from({ length: 3 }, (_, i) => ({
          name: `slow-${i}`,
          ipAddress: '127.0.0.41',
          monitorPort: silent.port,
        })),
      );
      const config = jobsConfig({ HEALTH_CHECK_CRON: '* * * * * *' });
      const { scheduler, warnings } = watchedScheduler(d, [healthChecksJob], config);
      scheduler.start();
      try {
        await waitFor(
          async () => (await runsOf(d, 'health-checks')).some((r) => r.result === 'skipped'),
          10_000,
          'a skipped tick',
        );
      } finally {
        await scheduler.stop(5_000);
      }
      const runs = await runsOf(d, 'health-checks');
      const skipped = runs.filter((r) => r.result === 'skipped');
      expect(skipped[0].message).toMatch(/^Skipped: the previous run \(started .+\) was still running\.$/);
      expect(warnings).toContain('job tick skipped: the previous run is still running');
      // Never two rounds of this worker at once: one run started, the ticks meanwhile skipped.
      expect(runs.filter((r) => r.result !== 'skipped')).toHaveLength(1);
      const row = (await jobsOverview(d.db, config, 'UTC')).find((j) => j.name === 'health-checks')!;
      expect(row.lastRun?.result).not.toBe('skipped');
      expect(row.lastSkipped?.message).toBe(skipped.at(-1)!.message);
    } finally {
      silent.close();
    }
  }, 20_000);

  it('a job run by hand while it runs is refused and not recorded as a skipped tick', async () => {
    const d = await fresh();
    const hold = gate();
    const job = defineJob({
      name: 'test-held',
      title: 'Held',
      schedule: () => 'off',
      run: () => hold.opened.then(() => 'done'),
    });
    const { scheduler, warnings } = watchedScheduler(d, [job]);
    const first = scheduler.runNow('test-held');
    await waitFor(async () => (await runsOf(d, 'test-held')).length === 1, 5_000, 'the run to start');
    expect(await scheduler.runNow('test-held')).toMatchObject({ status: 'skipped' });
    hold.open();
    await first;
    expect((await runsOf(d, 'test-held')).map((r) => r.result)).toEqual(['ok']);
    expect(warnings).toEqual([]);
  });
});

describe.skipIf(!usingPostgres())(
  'two workers: a held lock is a skip only when the run is from an earlier slot',
  () => {
    it('both workers record a skipped tick while a long run of an earlier slot holds the lock', async () => {
      const a = await fresh();
      const b = secondWorkerDatabase(a);
      open.push(b);
      const hold = gate();
      let runs = 0;
      const job = defineJob({
        name: 'test-long',
        title: 'Long',
        schedule: () => '* * * * * *',
        run: async () => {
          if (++runs === 1) await hold.opened; // the first run outlasts a few ticks; later ones end at once
          return 'done';
        },
      });
      const A = watchedScheduler(a, [job]);
      const B = watchedScheduler(b, [job]);
      A.scheduler.start();
      B.scheduler.start();
      try {
        await waitFor(() => A.warnings.length > 0 && B.warnings.length > 0, 10_000, 'both workers to warn');
        hold.open();
        await sleep(2_200); // two more ticks: each slot taken by one worker, the other finds it taken (no warning)
        const before = A.warnings.length + B.warnings.length;
        await sleep(2_000);
        expect(A.warnings.length + B.warnings.length).toBe(before);
      } finally {
        hold.open();
        await Promise.all([A.scheduler.stop(3_000), B.scheduler.stop(3_000)]);
      }
      const results = await runsOf(a, 'test-long');
      expect(results.some((r) => r.result === 'skipped')).toBe(true);
      expect(
        results.filter((r) => r.result === 'skipped').every((r) => r.message?.startsWith('Skipped: the previous run')),
      ).toBe(true);
    }, 30_000);
  },
);
