/** Read model: joins servers (their daily health rollups, uptime and SLA targets) for the health report. */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { environments, type Environment } from '../db/schema';
import { serverInTeam } from './teams';
import type { Capped, EnvironmentUptime, SlaMissedServer } from './types';
import { SERVER_ROWS } from './fleet';

const DAY_MS = 86_400_000;

/** The first UTC day of the 30-day period (the 30 whole days before today, and today so far). */
const thirtyDaysFrom = (now: Date) =>
  new Date((Math.floor(now.getTime() / DAY_MS) - 30) * DAY_MS).toISOString().slice(0, 10);

const percent = (up: unknown, counted: unknown) =>
  Number(counted ?? 0) > 0 ? Math.round((100_000 * Number(up)) / Number(counted)) / 1000 : null;

/**
 * Each environment's 30-day availability (its servers' checks together: up among those not in maintenance),
 * its SLA target and how many servers missed it.
 */
export async function uptimeByEnvironment(db: Db, now: Date, team: string | null): Promise<EnvironmentUptime[]> {
  const rows = await queryRows<{ environment: Environment; up: unknown; counted: unknown }>(
    db,
    sql`select s.environment, sum(d.online + d.warning) as up, sum(d.checks - d.maintenance) as counted
        from health_daily d join servers s on s.id = d.server_id
        where d.day >= ${thirtyDaysFrom(now)}::date and ${serverInTeam(team)}
        group by s.environment`,
  );
  const targets = await queryRows<{ environment: Environment; target: unknown; missed: unknown }>(
    db,
    sql`select t.environment, t.target_pct as target,
               (select count(*) from server_uptime u join servers s on s.id = u.server_id
                where s.environment = t.environment and u.pct_30d < t.target_pct and ${serverInTeam(team)}) as missed
        from sla_targets t`,
  );
  return environments.map((environment) => {
    const r = rows.find((x) => x.environment === environment);
    const t = targets.find((x) => x.environment === environment);
    return {
      environment,
      uptime30d: r ? percent(r.up, r.counted) : null,
      target: t ? Number(t.target) : null,
      missed: t ? Number(t.missed) : 0,
    };
  });
}

/** The servers whose 30-day uptime (as the last rollup computed it) is below their environment's target, worst first. */
export async function slaMissed(db: Db, team: string | null): Promise<Capped<SlaMissedServer>> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select s.id, s.name, s.environment, s.status, u.pct_30d, t.target_pct, count(*) over () as total
        from server_uptime u
        join servers s on s.id = u.server_id
        join sla_targets t on t.environment = s.environment
        where u.pct_30d < t.target_pct and ${serverInTeam(team)}
        order by u.pct_30d, s.name limit ${sql.raw(String(SERVER_ROWS))}`,
  );
  return {
    rows: rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      environment: r.environment as Environment,
      status: r.status as SlaMissedServer['status'],
      uptime30d: Number(r.pct_30d),
      target: Number(r.target_pct),
    })),
    total: rows.length ? Number(rows[0].total) : 0,
  };
}
