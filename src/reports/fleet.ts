/** Read model: joins servers (inventory, health checks and document links) for the health report. */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { environments, serverStatuses, type Environment, type ServerStatus } from '../db/schema';
import { serverInTeam } from './teams';
import type {
  Capped,
  HighUsageServer,
  OfflineServer,
  ServerRef,
  StaleServer,
  StateChange,
  UnlinkedServer,
} from './types';

export const HIGH_USAGE_PERCENT = 90;
export const OFFLINE_LONG_MS = 60 * 60 * 1000;
export const STALE_METRICS_MS = 60 * 60 * 1000;
const LIST_LIMIT = 200;
/** Rows of the lists that name servers to act on (down, without a runbook); the rest are counted. */
export const SERVER_ROWS = 25;

const emptyCounts = () => Object.fromEntries(serverStatuses.map((s) => [s, 0])) as Record<ServerStatus, number>;
export const asDate = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));
const limit = (n: number) => sql.raw(String(n));

function ref(r: Record<string, unknown>): ServerRef {
  return {
    id: String(r.id),
    name: String(r.name),
    environment: r.environment as Environment,
    status: r.status as ServerStatus,
  };
}

/** Counts by status and environment. */
export async function counts(db: Db, team: string | null) {
  const rows = await queryRows<{ environment: Environment; status: ServerStatus; n: number }>(
    db,
    sql`select environment, status, count(*)::int as n from servers s where ${serverInTeam(team)} group by environment, status`,
  );
  const byStatus = emptyCounts();
  const byEnvironment = environments.map((environment) => ({ environment, total: 0, byStatus: emptyCounts() }));
  for (const r of rows) {
    byStatus[r.status] += r.n;
    const env = byEnvironment.find((e) => e.environment === r.environment);
    if (env) {
      env.total += r.n;
      env.byStatus[r.status] += r.n;
    }
  }
  return { total: rows.reduce((sum, r) => sum + r.n, 0), byStatus, byEnvironment };
}

/** Servers with a recorded status change since `since`: first previous status, number of changes, current status. */
export async function changedSince(db: Db, since: Date, team: string | null): Promise<StateChange[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select s.id, s.name, s.environment, s.status, c.from_status, c.changes::int as changes, c.last_changed_at
        from (select server_id, count(*) as changes, max(checked_at) as last_changed_at,
                     (array_agg(previous_status order by checked_at))[1] as from_status
              from health_checks
              where checked_at > ${since.toISOString()}::timestamptz
                and previous_status is not null and status <> previous_status
              group by server_id) c
        join servers s on s.id = c.server_id
        where ${serverInTeam(team)}
        order by c.last_changed_at desc, s.name limit ${limit(LIST_LIMIT)}`,
  );
  return rows.map((r) => ({
    ...ref(r),
    from: (r.from_status as ServerStatus) ?? null,
    changes: Number(r.changes),
    lastChangedAt: asDate(r.last_changed_at)!,
  }));
}

/** Offline servers, the longest outage first: all of them, or (`before`) those offline since before that time. */
export async function offline(
  db: Db,
  team: string | null,
  opts: { before?: Date; rows: number },
): Promise<OfflineServer[]> {
  const since = opts.before
    ? sql`and (s.status_changed_at is null or s.status_changed_at <= ${opts.before.toISOString()}::timestamptz)`
    : sql``;
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select s.id, s.name, s.environment, s.status, s.status_changed_at, s.team_owner from servers s
        where s.status = 'offline' ${since} and ${serverInTeam(team)}
        order by s.status_changed_at nulls first, s.name limit ${limit(opts.rows)}`,
  );
  return rows.map((r) => ({
    ...ref(r),
    offlineSince: asDate(r.status_changed_at),
    teamOwner: (r.team_owner as string) ?? null,
  }));
}

/** Servers offline for more than an hour. */
export const offlineLong = (db: Db, now: Date, team: string | null) =>
  offline(db, team, { before: new Date(now.getTime() - OFFLINE_LONG_MS), rows: LIST_LIMIT });

export async function highUsage(db: Db, team: string | null): Promise<HighUsageServer[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, name, environment, status, cpu_usage, memory_usage, disk_usage from servers s
        where status <> 'maintenance' and ${serverInTeam(team)}
          and (cpu_usage >= ${HIGH_USAGE_PERCENT} or memory_usage >= ${HIGH_USAGE_PERCENT} or disk_usage >= ${HIGH_USAGE_PERCENT})
        order by greatest(cpu_usage, memory_usage, disk_usage) desc, name limit ${limit(LIST_LIMIT)}`,
  );
  return rows.map((r) => ({
    ...ref(r),
    cpu: Number(r.cpu_usage),
    memory: Number(r.memory_usage),
    disk: Number(r.disk_usage),
  }));
}

export async function staleMetrics(db: Db, now: Date, team: string | null): Promise<StaleServer[]> {
  const cutoff = new Date(now.getTime() - STALE_METRICS_MS).toISOString();
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, name, environment, status, metrics_updated_at from servers s
        where status in ('online', 'warning') and ${serverInTeam(team)}
          and (metrics_updated_at is null or metrics_updated_at < ${cutoff}::timestamptz)
        order by metrics_updated_at nulls first, name limit ${limit(LIST_LIMIT)}`,
  );
  return rows.map((r) => ({ ...ref(r), metricsUpdatedAt: asDate(r.metrics_updated_at) }));
}

/** Servers without a linked live document (whoever may read it), by name, capped, with how many there are. */
export async function withoutRunbook(db: Db, team: string | null): Promise<Capped<UnlinkedServer>> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select s.id, s.name, s.environment, s.status, s.team_owner, count(*) over () as total from servers s
        where ${serverInTeam(team)} and not exists (
          select 1 from server_documents sd join documents d on d.id = sd.document_id
          where sd.server_id = s.id and d.deleted_at is null)
        order by s.name limit ${limit(SERVER_ROWS)}`,
  );
  return {
    rows: rows.map((r) => ({ ...ref(r), teamOwner: (r.team_owner as string) ?? null })),
    total: rows.length ? Number(rows[0].total) : 0,
  };
}
