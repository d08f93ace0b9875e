import { sql } from 'drizzle-orm';
import cron from 'node-cron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineJob } from '../../jobs/define-job';
import { describeSchedule, nextRunAt } from '../../jobs/scheduler';
import { queryRows, type Database } from '../../src/db/client';
import { createTestDatabase } from '../helpers/db';
import { jobsConfig, sleep, testScheduler, waitFor } from './support';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const results = (job: string) =>
  queryRows<{ result: string; message: string }>(
    database.db,
    sql`select result, message from job_runs where job = ${job} order by started_at`,
  );

describe('scheduler', () => {
  it('runs a job on its cron schedule and not when the schedule is off', async () => {
    let ticks = 0;
    const every = defineJob({
      name: 'test-tick',
      title: 'Tick',
      schedule: () => '* * * * * *',
      run: async () => `tick ${++ticks}`,
    });
    const never = defineJob({ name: 'test-never', title: 'Never', schedule: () => 'off', run: async () => 'ran' });
    const scheduler = testScheduler(database, { jobs: [every, never] });
    expect(scheduler.start()).toEqual(['test-tick']);
    await waitFor(() => ticks >= 2, 5_000, 'two ticks');
    const cronTasks = () => [...cron.getTasks().values()].map((task) => task.name);
    expect(cronTasks()).toContain('opshub:test-tick');
    await scheduler.stop();
    // Stopped: node-cron holds no task of it that could fire again (seen at once, instead of waiting a second).
    expect(cronTasks()).not.toContain('opshub:test-tick');
    expect((await results('test-tick')).every((r) => r.result === 'ok')).toBe(true);
    expect(await results('test-never')).toEqual([]);
  });

  it('takes schedules from configuration', () => {
    const config = jobsConfig({ HEALTH_CHECK_CRON: '*/2 * * * *', HEALTH_REPORT_CRON: 'off' });
    const scheduler = testScheduler(database, { config });
    expect(scheduler.start().sort()).toEqual([
      'alerts',
      'audit-retention',
      'backup',
      'health-checks',
      'health-rollup',
      'import-jobs',
      'mail-delivery',
      'notification-mail',
      'review-digest',
      'token-expiry',
      'webhooks',
    ]);
    return scheduler.stop();
  });

  it('computes the next run from the cron expression', () => {
    const next = nextRunAt('*/5 * * * *')!;
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(next.getMinutes() % 5).toBe(0);
    const daily = nextRunAt('0 7 * * *')!;
    expect([daily.getHours(), daily.getMinutes()]).toEqual([7, 0]);
    expect(nextRunAt('off')).toBeNull();
  });

  it('on stop, lets a job that listens to the signal finish, and records one that does not as abandoned', async () => {
    let polite = 'not started';
    const politeJob = defineJob({
      name: 'test-polite',
      title: 'Polite',
      schedule: () => 'off',
      run: async ({ signal }) => {
        polite = 'running';
        while (!signal.aborted) await sleep(20);
        polite = 'stopped between steps';
        return 'stopped early';
      },
    });
    let stubbornStarted = false;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const stubbornJob = defineJob({
      name: 'test-stubborn',
      title: 'Stubborn',
      schedule: () => 'off',
      // ignores the signal
      run: async () => {
        stubbornStarted = true;
        await released;
        return 'finally';
      },
    });
    const a = testScheduler(database, { jobs: [politeJob] });
    const running = a.runNow('test-polite');
    await waitFor(() => polite === 'running');
    expect(await a.stop(5_000)).toEqual({ abandoned: [] });
    expect(await running).toMatchObject({ status: 'ok', message: 'stopped early' });
    expect(await a.runNow('test-polite')).toMatchObject({ status: 'skipped' }); // no new runs after stop

    const b = testScheduler(database, { jobs: [stubbornJob] });
    const stubborn = b.runNow('test-stubborn');
    await waitFor(() => stubbornStarted);
    expect(await b.stop(300)).toEqual({ abandoned: ['test-stubborn'] });
    expect(await results('test-stubborn')).toEqual([
      { result: 'error', message: 'Abandoned at shutdown: the run did not finish in time.' },
    ]);
    release();
    await stubborn;
  });
});

describe('describeSchedule', () => {
  it('puts common cron shapes into words', () => {
    expect(describeSchedule('*/5 * * * *')).toBe('Every 5 minutes');
    expect(describeSchedule('* * * * *')).toBe('Every minute');
    expect(describeSchedule('17 * * * *')).toBe('Hourly at :17');
    expect(describeSchedule('0 7 * * *')).toBe('Daily at 07:00');
    expect(describeSchedule('0 7 * * 1-5')).toBeNull();
  });
});
