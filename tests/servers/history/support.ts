import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../../src/db/client';
import { servers } from '../../../src/db/schema';
import { availability, periodStarts, type Period, type Uptime } from '../../../src/servers/history/periods';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Servers that are never probed (no address): only the checks a test writes exist. */
export async function addServers(db: Db, names: string[], environment: 'production' | 'staging' = 'production') {
  const rows = await db
    .insert(servers)
    .values(names.map((name) => ({ name, environment, status: 'online' as const })))
    .returning({ id: servers.id });
  return rows.map((r) => r.id);
}

/** Raw checks with explicit times and statuses. */
export async function addChecks(db: Db, serverId: string, checks: [Date, string, number?][]) {
  if (!checks.length) return;
  const json = JSON.stringify(checks.map(([at, status, latency]) => ({ at: at.toISOString(), status, latency })));
  await db.execute(sql`
    insert into health_checks (server_id, checked_at, status, latency_ms)
    select ${serverId}::uuid, (c->>'at')::timestamptz, c->>'status', (c->>'latency')::int
    from jsonb_array_elements(${json}::jsonb) c`);
}

/**
 * Checks every `stepMinutes` going back `days` from `end`, statuses on a fixed pattern (online mostly, some
 * warning, offline and maintenance), written in SQL.
 */
export async function addCheckSeries(db: Db, serverId: string, end: Date, days: number, stepMinutes: number, seed = 0) {
  await db.execute(sql`
    insert into health_checks (server_id, checked_at, status, latency_ms)
    select ${serverId}::uuid, ${end.toISOString()}::timestamptz - g * ${stepMinutes} * interval '1 minute',
           case when (g + ${seed}) % 13 = 0 then 'offline' when (g + ${seed}) % 17 = 0 then 'maintenance'
                when (g + ${seed}) % 5 = 0 then 'warning' else 'online' end,
           (g * 7 + ${seed}) % 200
    from generate_series(0, ${Math.floor((days * 24 * 60) / stepMinutes)}) g`);
}

/** The period's uptime counted straight from the raw checks (what the rollups must equal). */
export async function directUptime(db: Db, serverId: string, now: Date): Promise<Uptime> {
  const p = periodStarts(now);
  const starts: Record<Period, string> = {
    '24h': p.hours24.toISOString(),
    '7d': `${p.days['7d']}T00:00:00Z`,
    '30d': `${p.days['30d']}T00:00:00Z`,
    '90d': `${p.days['90d']}T00:00:00Z`,
  };
  const result = {} as Uptime;
  for (const [period, start] of Object.entries(starts) as [Period, string][]) {
    const [r] = await queryRows<{ up: unknown; counted: unknown }>(
      db,
      sql`select count(*) filter (where status in ('online', 'warning')) as up,
                 count(*) filter (where status <> 'maintenance') as counted
          from health_checks
          where server_id = ${serverId}::uuid and checked_at >= ${start}::timestamptz
            and checked_at <= ${now.toISOString()}::timestamptz`,
    );
    result[period] = availability(Number(r.up), Number(r.counted));
  }
  return result;
}

export async function count(db: Db, table: string): Promise<number> {
  const [r] = await queryRows<{ n: unknown }>(db, sql`select count(*) as n from ${sql.raw(table)}`);
  return Number(r.n);
}
