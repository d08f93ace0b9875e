import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { defineJob } from '../../jobs/define-job';
import { sharedRunStaleMs } from '../../jobs/scheduler';
import { queryRows, type Database } from '../../src/db/client';
import { createTestDatabase } from '../helpers/db';
import { jobsConfig, testScheduler } from './support';

const open: Database[] = [];
afterEach(async () => {
  for (const d of open.splice(0).reverse()) await d.close().catch(() => {});
});

const sharedJob = defineJob({
  name: 'test-shared',
  title: 'Shared',
  shared: true,
  leaseMs: 60_000,
  schedule: () => '*/5 * * * *',
  run: async () => 'done',
});

describe('runs of a shared job left running by a killed worker', () => {
  it('are closed as abandoned by the next run of any worker once older than 3 leases plus the interval', async () => {
    const d = await createTestDatabase();
    open.push(d);
    const config = jobsConfig();
    expect(sharedRunStaleMs(sharedJob, config)).toBe(3 * 60_000 + 5 * 60_000);
    // A killed worker's run (9 minutes old: past 8) and a live worker's run (2 minutes old).
    await queryRows(
      d.db,
      sql`insert into job_runs (job, result, started_at) values
          ('test-shared', 'running', now() - interval '9 minutes'),
          ('test-shared', 'running', now() - interval '2 minutes')`,
    );
    const outcome = await testScheduler(d, { jobs: [sharedJob], config }).runNow('test-shared');
    expect(outcome.status).toBe('ok');
    const runs = await queryRows<{ result: string; message: string | null; finished: boolean }>(
      d.db,
      sql`select result, message, finished_at is not null as finished from job_runs where job = 'test-shared'
          order by started_at`,
    );
    expect(runs.map((r) => r.result)).toEqual(['error', 'running', 'ok']);
    expect(runs[0]).toMatchObject({ finished: true, message: expect.stringMatching(/^Abandoned: /) });
  });
});
