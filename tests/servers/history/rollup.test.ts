import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthRollupJob } from '../../../jobs/health-rollup';
import { loadConfig } from '../../../src/config';
import { queryRows, type Database, type Db } from '../../../src/db/client';
import { hourStart, periodStarts } from '../../../src/servers/history/periods';
import { rollUpHealth } from '../../../src/servers/history/rollup';
import { refreshServerUptime, serverUptime, uptimeOfAll } from '../../../src/servers/history/uptime';
import { createLogger } from '../../../src/http/logger';
import { createTestDatabase } from '../../helpers/db';
import { addCheckSeries, addChecks, addServers, count, DAY, directUptime, HOUR } from './support';

const NOW = new Date('2026-03-15T10:20:00Z');

let database: Database;
let db: Db;
let busy: string;
let quiet: string;
let silent: string;

const snapshot = async () => ({
  hourly: await queryRows(db, sql`select * from health_rollups order by server_id, hour`),
  daily: await queryRows(db, sql`select * from health_daily order by server_id, day`),
});

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  [busy, quiet, silent] = await addServers(db, ['busy', 'quiet', 'silent']);
  // 95 days every 47 minutes (hours and days hold different counts), and a server with only a few checks.
  await addCheckSeries(db, busy, NOW, 95, 47);
  await addCheckSeries(db, quiet, new Date(NOW.getTime() - 2 * DAY), 3, 180, 4);
  // Rows exactly on each period's start count; a millisecond before, they do not (offline: they would lower it).
  const p = periodStarts(NOW);
  for (const start of [p.hours24, new Date(`${p.days['7d']}T00:00:00Z`), new Date(`${p.days['30d']}T00:00:00Z`)]) {
    await addChecks(db, busy, [
      [start, 'online', 5],
      [new Date(start.getTime() - 1), 'offline', 9],
    ]);
  }
});

afterAll(() => database.close());

describe('rollups and uptime', () => {
  it('uptime per period equals a direct count over the raw checks', async () => {
    await rollUpHealth(db, { now: NOW });
    for (const id of [busy, quiet]) {
      const direct = await directUptime(db, id, NOW);
      expect(await serverUptime(db, id, NOW)).toEqual(direct);
    }
    expect(await serverUptime(db, silent, NOW)).toEqual({ '24h': null, '7d': null, '30d': null, '90d': null });
    const busyNow = await directUptime(db, busy, NOW);
    for (const v of Object.values(busyNow)) expect(v).toBeGreaterThan(50);
    // The quiet server's checks ended two days ago: nothing in the last 24 hours.
    expect((await serverUptime(db, quiet, NOW))?.['24h']).toBeNull();
  });

  it('defines availability as up (online, warning) among checks not in maintenance', async () => {
    const [id] = await addServers(db, ['defined']);
    const at = (m: number) => new Date(NOW.getTime() - m * 60_000);
    // Written after the last run, partly in the hour before the newest rolled-up one (a round committing late).
    await addChecks(db, id, [
      [at(5), 'online'],
      [at(10), 'online'],
      [at(15), 'online'],
      [at(20), 'offline'],
      [at(25), 'warning'],
      [at(30), 'maintenance'],
      [at(35), 'maintenance'],
    ]);
    await rollUpHealth(db, { now: NOW });
    expect(await serverUptime(db, id, NOW)).toEqual({ '24h': 80, '7d': 80, '30d': 80, '90d': 80 });
  });

  it('hourly rollups hold counts per status and latency min/avg/max; daily ones sum the hours', async () => {
    const hour = new Date(hourStart(NOW).getTime() - 5 * HOUR).toISOString();
    const [direct] = await queryRows<Record<string, unknown>>(
      db,
      sql`select count(*)::int as checks, (count(*) filter (where status = 'offline'))::int as failures,
                 (count(*) filter (where status = 'warning'))::int as warning,
                 min(latency_ms) as latency_min, max(latency_ms) as latency_max, avg(latency_ms)::float8 as latency_avg
          from health_checks where server_id = ${busy}::uuid
            and checked_at >= ${hour}::timestamptz and checked_at < ${hour}::timestamptz + interval '1 hour'`,
    );
    const [rolled] = await queryRows<Record<string, unknown>>(
      db,
      sql`select checks, failures, warning, latency_min, latency_max, latency_avg from health_rollups
          where server_id = ${busy}::uuid and hour = ${hour}::timestamptz`,
    );
    expect(rolled).toEqual(direct);
    const [day] = await queryRows<Record<string, unknown>>(
      db,
      sql`select d.checks, (select count(*)::int from health_checks where server_id = d.server_id
            and checked_at >= d.day::timestamp at time zone 'UTC'
            and checked_at < (d.day + 1)::timestamp at time zone 'UTC') as direct
          from health_daily d where d.server_id = ${busy}::uuid and d.day = '2026-03-01'`,
    );
    expect(day.checks).toBe(day.direct);
  });

  it('re-running recomputes the same rows (idempotent), and a later run picks up new checks', async () => {
    const before = await snapshot();
    await rollUpHealth(db, { now: NOW });
    await rollUpHealth(db, { now: NOW });
    expect(await snapshot()).toEqual(before);

    const later = new Date(NOW.getTime() + 50 * 60_000);
    await addChecks(db, busy, [
      [new Date(NOW.getTime() + 10 * 60_000), 'offline', 3],
      [new Date(NOW.getTime() + 45 * 60_000), 'offline', 4],
    ]);
    await rollUpHealth(db, { now: later });
    expect(await serverUptime(db, busy, later)).toEqual(await directUptime(db, busy, later));
  });

  it("server_uptime (uptimeOfAll) holds every server's figures as of the run", async () => {
    expect(await refreshServerUptime(db, NOW)).toBe(await count(db, 'servers'));
    const all = await uptimeOfAll(db);
    expect(all.get(quiet)).toEqual(await serverUptime(db, quiet, NOW));
    expect(all.get(silent)).toEqual({ '24h': null, '7d': null, '30d': null, '90d': null });
  });

  it('the health-rollup job rolls up, refreshes uptime and prunes', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', HEALTH_HISTORY_DAYS: '20' });
    const later = new Date(NOW.getTime() + HOUR);
    const summary = await healthRollupJob.run({
      db,
      database,
      config,
      logger: createLogger('silent'),
      signal: new AbortController().signal,
      now: later,
    });
    expect(summary).toMatch(/Rolled up \d+ server-hours/);
    const [oldest] = await queryRows<{ at: unknown }>(db, sql`select min(checked_at) as at from health_checks`);
    expect(new Date(String(oldest.at)).getTime()).toBeGreaterThanOrEqual(later.getTime() - 20 * DAY);
    // Pruning raw rows leaves the rollups, so uptime over 90 days is unchanged by it.
    const all = await uptimeOfAll(db);
    expect(all.get(busy)?.['90d']).toBe((await serverUptime(db, busy, later))?.['90d']);
    expect(all.get(busy)?.['90d']).toBeGreaterThan(50);
  });
});
