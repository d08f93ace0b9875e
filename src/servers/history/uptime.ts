import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { availability, periodStarts, type Uptime } from './periods';

const num = (v: unknown) => Number(v ?? 0);
type Pct = number | null;

/**
 * Per server, the up and counted checks of each period: 24h from the hourly rollups, the day periods from the
 * daily ones (`where` narrows to one server: then both reads go by the primary keys).
 */
function countsQuery(now: Date, where: (column: SQL) => SQL) {
  const p = periodStarts(now);
  const up = sql`online + warning`;
  const counted = sql`checks - maintenance`;
  const days = (start: string) => sql`day >= ${start}::date`;
  return sql`
    select s.id,
           h.up as up_24h, h.counted as n_24h,
           d.up_7d, d.n_7d, d.up_30d, d.n_30d, d.up_90d, d.n_90d
    from servers s
    left join (select server_id, sum(${up}) as up, sum(${counted}) as counted from health_rollups
               where hour >= ${p.hours24.toISOString()}::timestamptz and ${where(sql`server_id`)}
               group by server_id) h on h.server_id = s.id
    left join (select server_id,
                      sum(${up}) filter (where ${days(p.days['7d'])}) as up_7d,
                      sum(${counted}) filter (where ${days(p.days['7d'])}) as n_7d,
                      sum(${up}) filter (where ${days(p.days['30d'])}) as up_30d,
                      sum(${counted}) filter (where ${days(p.days['30d'])}) as n_30d,
                      sum(${up}) as up_90d, sum(${counted}) as n_90d
               from health_daily where ${days(p.days['90d'])} and ${where(sql`server_id`)}
               group by server_id) d on d.server_id = s.id
    where ${where(sql`s.id`)}`;
}

type Counts = Record<'up_24h' | 'n_24h' | 'up_7d' | 'n_7d' | 'up_30d' | 'n_30d' | 'up_90d' | 'n_90d', unknown>;

const uptimeOf = (r: Counts): Uptime => ({
  '24h': availability(num(r.up_24h), num(r.n_24h)),
  '7d': availability(num(r.up_7d), num(r.n_7d)),
  '30d': availability(num(r.up_30d), num(r.n_30d)),
  '90d': availability(num(r.up_90d), num(r.n_90d)),
});

/** One server's uptime per period, read from its rollups (null: an unknown server). */
export async function serverUptime(db: Db, serverId: string, now = new Date()): Promise<Uptime | null> {
  const [row] = await queryRows<Counts>(
    db,
    countsQuery(now, (column) => sql`${column} = ${serverId}::uuid`),
  );
  return row ? uptimeOf(row) : null;
}

/** Recomputes server_uptime for every server from the rollups (the rollup job calls it after rolling up). */
export async function refreshServerUptime(db: Db, now: Date): Promise<number> {
  const rows = await queryRows<Counts & { id: string }>(
    db,
    countsQuery(now, () => sql`true`),
  );
  const values = rows.map((r) => ({ id: r.id, ...uptimeOf(r) }));
  for (let i = 0; i < values.length; i += 5_000) {
    const part = JSON.stringify(values.slice(i, i + 5_000));
    await db.execute(sql`
      insert into server_uptime (server_id, pct_24h, pct_7d, pct_30d, pct_90d, computed_at)
      select (v->>'id')::uuid, (v->>'24h')::float8, (v->>'7d')::float8, (v->>'30d')::float8, (v->>'90d')::float8,
             ${now.toISOString()}::timestamptz
      from jsonb_array_elements(${part}::jsonb) v
      on conflict (server_id) do update set pct_24h = excluded.pct_24h, pct_7d = excluded.pct_7d,
        pct_30d = excluded.pct_30d, pct_90d = excluded.pct_90d, computed_at = excluded.computed_at`);
  }
  return values.length;
}

/** Every server's uptime as the last rollup run computed it (the infrastructure table): server id → uptime. */
export async function uptimeOfAll(db: Db): Promise<Map<string, Uptime>> {
  const rows = await queryRows<{ id: string; d1: Pct; d7: Pct; d30: Pct; d90: Pct }>(
    db,
    sql`select server_id as id, pct_24h as d1, pct_7d as d7, pct_30d as d30, pct_90d as d90 from server_uptime`,
  );
  const all = new Map<string, Uptime>();
  // 20,000 rows or more: one plain loop (double precision arrives as numbers on both drivers).
  for (const r of rows) all.set(r.id, { '24h': r.d1, '7d': r.d7, '30d': r.d30, '90d': r.d90 });
  return all;
}
