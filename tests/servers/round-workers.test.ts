import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { defineJob } from '../../jobs/define-job';
import { healthChecksJob } from '../../jobs/health-checks';
import { queryRows, type Database } from '../../src/db/client';
import { servers } from '../../src/db/schema';
import { ROUND_LEASE_MS, runRoundShare } from '../../src/servers/round';
import { createTestDatabase, usingPostgres } from '../helpers/db';
import { jobsConfig, secondWorkerDatabase, testScheduler, urlOf, waitFor } from '../jobs/support';
import { silentPort, countingListener } from './loopback';

const root = path.resolve(import.meta.dirname, '../..');
const open: Database[] = [];
const listeners: NetServer[] = [];
afterEach(async () => {
  for (const l of listeners.splice(0)) l.close();
  for (const d of open.splice(0).reverse()) await d.close().catch(() => {});
});

/** A counting loopback listener, closed after the tests. */
async function countingPort(host?: string) {
  const listener = await countingListener(host);
  listeners.push(listener.server);
  return listener;
}

async function seedCounted(d: Database, n: number) {
  const ports = [];
  for (let i = 0; i < n; i++) ports.push(await countingPort(`127.0.0.${1 + (i % 4)}`));
  await d.db
    .insert(servers)
    .values(ports.map((p, i) => ({ name: `w-${i}`, ipAddress: `127.0.0.${1 + (i % 4)}`, monitorPort: p.port })));
  return ports;
}

const count = async (d: Database, query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(d.db, query))[0].n;

describe.skipIf(!usingPostgres())('two workers on one PostgreSQL share each round', () => {
  if (!usingPostgres())
    console.info('[round] two-worker tests skipped: they need a real PostgreSQL (set TEST_DATABASE_URL)');

  it('two schedulers (separate pools) both take part and probe each server exactly once per round', async () => {
    const a = await createTestDatabase();
    open.push(a);
    const b = secondWorkerDatabase(a);
    open.push(b);
    const ports = await seedCounted(a, 60);
    const config = jobsConfig({ HEALTH_CHECK_CRON: '* * * * * *', HEALTH_CHECK_CONCURRENCY: '3' });
    const shares: Record<string, number> = { a: 0, b: 0 };
    // The real job, noting which worker's share each run was.
    const jobFor = (worker: string) =>
      defineJob({
        ...healthChecksJob,
        run: async (ctx) => {
          const message = await healthChecksJob.run(ctx);
          shares[worker] += Number(/^Checked (\d+)/.exec(message)?.[1] ?? 0);
          return message;
        },
      });
    const workerA = testScheduler(a, { jobs: [jobFor('a')], config });
    const workerB = testScheduler(b, { jobs: [jobFor('b')], config });
    workerA.start();
    workerB.start();
    try {
      await waitFor(
        async () => (await count(a, sql`select count(*)::int as n from health_schedule where round_at is null`)) === 0,
        15_000,
        'the first round to end',
      );
    } finally {
      await Promise.all([workerA.stop(5_000), workerB.stop(5_000)]);
    }
    // Ticks every second belong to the round of their minute: one round, or two when a minute turned meanwhile.
    const rounds = await count(a, sql`select count(*)::int as n from health_rounds`);
    expect(rounds === 1 || rounds === 2).toBe(true);
    expect(ports.map((p) => p.accepted())).toEqual(ports.map(() => rounds));
    expect(shares.a).toBeGreaterThan(0);
    expect(shares.b).toBeGreaterThan(0);
    expect(shares.a + shares.b).toBe(60 * rounds);
    // Each worker records its own runs (no advisory lock, no "another worker ran this slot").
    const runs = await queryRows<{ result: string }>(
      a.db,
      sql`select result from job_runs where job = 'health-checks'`,
    );
    expect(runs.filter((r) => r.result === 'ok').length).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('a worker process killed mid-round (SIGKILL): the other takes its claims over when the lease ends, in the same run', async () => {
    const a = await createTestDatabase();
    open.push(a);
    const silent = await silentPort('127.0.0.31');
    const up = await seedCounted(a, 6);
    await a.db
      .insert(servers)
      .values(
        Array.from({ length: 4 }, (_, i) => ({ name: `s-${i}`, ipAddress: '127.0.0.31', monitorPort: silent.port })),
      );
    const child = spawn(process.execPath, ['--import', 'tsx', 'jobs/worker.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opshub-worker-')),
        DATABASE_URL: urlOf(a),
        HEALTH_CHECK_ALLOW_CIDRS: '127.0.0.0/8',
        HEALTH_CHECK_CRON: '* * * * * *',
        HEALTH_CHECK_CONCURRENCY: '2',
        HEALTH_REPORT_CRON: 'off',
        TOKEN_EXPIRY_CRON: 'off',
        MAIL_CRON: 'off',
        REVIEW_DIGEST_CRON: 'off',
        AUDIT_RETENTION_CRON: 'off',
        HEALTH_ROLLUP_CRON: 'off',
        ALERTS_CRON: 'off',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      // Mid-round: the worker holds claims on silent hosts (each probe waits 3 s for an answer that never comes).
      await waitFor(
        async () =>
          (await count(
            a,
            sql`select count(*)::int as n from health_schedule hs join servers s on s.id = hs.server_id
                where s.name like 's-%' and hs.lease_until is not null`,
          )) >= 2,
        20_000,
        'the worker to claim silent servers',
      );
      child.kill('SIGKILL');
      await exited;
      const [round] = await queryRows<{ slot: Date }>(a.db, sql`select max(slot_at) as slot from health_rounds`);
      const slotAt = new Date(round.slot);
      const orphaned = await count(
        a,
        sql`select count(*)::int as n from health_schedule where lease_until is not null`,
      );
      expect(orphaned).toBeGreaterThan(0);

      const probedByChild = await probedFor(a, slotAt);
      const deps = { db: a.db, config: jobsConfig() };
      // One run of the survivor (a scheduled share): it probes what is free, waits for the dead worker's leases
      // to end (a clock the wait moves on: no two minutes of real time) and takes its claims over.
      let offset = 0;
      const waits: number[] = [];
      const share = await runRoundShare(deps, {
        slotAt,
        workerId: 'survivor',
        timeoutMs: 300,
        concurrency: 1,
        waitForOthers: true,
        now: () => new Date(Date.now() + offset),
        sleep: async (ms) => {
          waits.push(ms);
          offset += ms;
        },
      });
      expect(share.checked).toBe(10 - probedByChild);
      expect(waits.length).toBeGreaterThan(0);
      expect(waits.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(ROUND_LEASE_MS + 1000);
      expect(await count(a, sql`select count(*)::int as n from health_schedule where lease_until is not null`)).toBe(0);
      expect(await probedFor(a, slotAt)).toBe(10);
      expect(up.every((p) => p.accepted() >= 1)).toBe(true);
    } finally {
      child.kill('SIGKILL');
      silent.close();
    }
  }, 60_000);
});

const probedFor = (d: Database, slotAt: Date) =>
  count(d, sql`select count(*)::int as n from health_schedule where round_at = ${slotAt.toISOString()}::timestamptz`);
