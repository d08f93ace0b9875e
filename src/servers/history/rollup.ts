import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { dayOf, dayStart, hourStart } from './periods';

/** One statement rolls up at most a day of checks (20,000 servers: about 5.8 million rows). */
const CHUNK_MS = 24 * 3_600_000;

export interface RollupResult {
  /** The first hour recomputed (null: no checks to roll up). */
  from: Date | null;
  hours: number;
  days: number;
}

const asDate = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

/** Hours the rollup recomputes before the newest one it has: a round's rows commit with their transaction's start time. */
const LOOKBACK_MS = 3_600_000;

/**
 * Where the next rollup starts: the hour before the newest hour already rolled up (that one may have been partial,
 * and a round committing late may add rows to the hour before it), or the first raw check's hour when nothing is
 * rolled up yet. Rows arrive at "now", so every hour before that is final. The first raw check is found per server
 * through the (server_id, checked_at) index: health_checks has no index on checked_at alone.
 */
export async function rollupStart(db: Db): Promise<Date | null> {
  const [done] = await queryRows<{ hour: unknown }>(db, sql`select max(hour) as hour from health_rollups`);
  if (done?.hour != null) return new Date(asDate(done.hour)!.getTime() - LOOKBACK_MS);
  const [first] = await queryRows<{ at: unknown }>(
    db,
    sql`select min(f.checked_at) as at from servers s
        cross join lateral (select checked_at from health_checks h where h.server_id = s.id
                            order by checked_at limit 1) f`,
  );
  return first?.at == null ? null : hourStart(asDate(first.at)!);
}

/** Recomputes the hourly rollups of the checks in [from, to) (to null: everything after from), upserting. */
async function rollUpHours(db: Db, from: Date, to: Date | null): Promise<number> {
  const before = to ? sql`and h.checked_at < ${to.toISOString()}::timestamptz` : sql``;
  const rows = await queryRows(
    db,
    sql`insert into health_rollups (server_id, hour, checks, failures, online, warning, offline, maintenance,
                                    latency_min, latency_avg, latency_max)
        select s.id, r.hour, r.checks, r.offline, r.online, r.warning, r.offline, r.maintenance, r.lmin, r.lavg, r.lmax
        from servers s
        cross join lateral (
          select date_trunc('hour', h.checked_at, 'UTC') as hour,
                 count(*)::int as checks,
                 (count(*) filter (where h.status = 'online'))::int as online,
                 (count(*) filter (where h.status = 'warning'))::int as warning,
                 (count(*) filter (where h.status = 'offline'))::int as offline,
                 (count(*) filter (where h.status = 'maintenance'))::int as maintenance,
                 min(h.latency_ms) as lmin, avg(h.latency_ms)::float8 as lavg, max(h.latency_ms) as lmax
          from health_checks h
          where h.server_id = s.id and h.checked_at >= ${from.toISOString()}::timestamptz ${before}
          group by 1
        ) r
        on conflict (server_id, hour) do update set
          checks = excluded.checks, failures = excluded.failures, online = excluded.online,
          warning = excluded.warning, offline = excluded.offline, maintenance = excluded.maintenance,
          latency_min = excluded.latency_min, latency_avg = excluded.latency_avg, latency_max = excluded.latency_max
        returning 1`,
  );
  return rows.length;
}

/** Recomputes the daily rollups of the UTC days [fromDay, toDay) from the hourly ones (toDay null: all after). */
async function rollUpDays(db: Db, fromDay: string, toDay: string | null): Promise<number> {
  const before = toDay ? sql`and hour < (${toDay}::date)::timestamp at time zone 'UTC'` : sql``;
  const rows = await queryRows(
    db,
    sql`insert into health_daily (server_id, day, checks, failures, online, warning, offline, maintenance)
        select server_id, (hour at time zone 'UTC')::date, sum(checks)::int, sum(failures)::int, sum(online)::int,
               sum(warning)::int, sum(offline)::int, sum(maintenance)::int
        from health_rollups
        where hour >= (${fromDay}::date)::timestamp at time zone 'UTC' ${before}
        group by 1, 2
        on conflict (server_id, day) do update set
          checks = excluded.checks, failures = excluded.failures, online = excluded.online,
          warning = excluded.warning, offline = excluded.offline, maintenance = excluded.maintenance
        returning 1`,
  );
  return rows.length;
}

/**
 * Rolls the raw checks up into hourly and daily summaries, from rollupStart through `now` (the current,
 * partial hour and day included, so uptime is fresh; the next run recomputes them). Idempotent: every touched
 * hour and day is recomputed whole and upserted. A day per statement, so no statement holds locks for long.
 */
export async function rollUpHealth(db: Db, opts: { now: Date; signal?: AbortSignal }): Promise<RollupResult> {
  const from = await rollupStart(db);
  if (!from) return { from: null, hours: 0, days: 0 };
  let hours = 0;
  let start = from;
  while (!opts.signal?.aborted) {
    const end = new Date(start.getTime() + CHUNK_MS);
    const last = end.getTime() > opts.now.getTime();
    hours += await rollUpHours(db, start, last ? null : end);
    if (last) break;
    start = end;
  }
  let days = 0;
  let day = dayStart(from);
  while (!opts.signal?.aborted) {
    const next = new Date(day.getTime() + CHUNK_MS);
    const last = next.getTime() > opts.now.getTime();
    days += await rollUpDays(db, dayOf(day), last ? null : dayOf(next));
    if (last) break;
    day = next;
  }
  return { from, hours, days };
}
