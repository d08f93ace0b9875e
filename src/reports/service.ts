/** Read model: joins knowledge (the runbooks a reader may see, knowledge/access.ts). */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import {
  DEFAULT_TIMEZONE,
  documents,
  environments,
  serverDocuments,
  serverStatuses,
  type Environment,
  type ServerStatus,
} from '../db/schema';
import { lastSuccessfulRunStart } from '../jobs/service';
import { readableBy } from '../knowledge/access';

/** The job whose last successful run marks "since the last report". */
export const HEALTH_REPORT_JOB = 'health-report';
export const HIGH_USAGE_PERCENT = 90;
export const OFFLINE_LONG_MS = 60 * 60 * 1000;
export const STALE_METRICS_MS = 60 * 60 * 1000;
const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;
const LIST_LIMIT = 200;

export interface ServerRef {
  id: string;
  name: string;
  environment: Environment;
  status: ServerStatus;
}
export interface StateChange extends ServerRef {
  from: ServerStatus | null;
  changes: number;
  lastChangedAt: Date;
}
export interface OfflineServer extends ServerRef {
  offlineSince: Date | null;
}
export interface HighUsageServer extends ServerRef {
  cpu: number;
  memory: number;
  disk: number;
}
export interface StaleServer extends ServerRef {
  metricsUpdatedAt: Date | null;
}

/** A live document linked to a server: what the reader opens to act on it. */
export interface RunbookRef {
  id: string;
  space: string;
  title: string;
}

export interface HealthReport {
  generatedAt: Date;
  since: Date;
  total: number;
  byStatus: Record<ServerStatus, number>;
  byEnvironment: { environment: Environment; total: number; byStatus: Record<ServerStatus, number> }[];
  changed: StateChange[];
  offlineLong: OfflineServer[];
  highUsage: HighUsageServer[];
  staleMetrics: StaleServer[];
  /** The runbooks of each server that changed state or is offline, by server id (those the reader may read). */
  runbooks: Record<string, RunbookRef[]>;
}

/** The fleet part of the report: the same for every reader. */
export type FleetReport = Omit<HealthReport, 'runbooks'>;

const emptyCounts = () => Object.fromEntries(serverStatuses.map((s) => [s, 0])) as Record<ServerStatus, number>;
const asDate = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

/** Counts by status and environment. */
async function counts(db: Db) {
  const rows = await queryRows<{ environment: Environment; status: ServerStatus; n: number }>(
    db,
    sql`select environment, status, count(*)::int as n from servers group by environment, status`,
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
async function changedSince(db: Db, since: Date): Promise<StateChange[]> {
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
        order by c.last_changed_at desc, s.name limit ${LIST_LIMIT}`,
  );
  return rows.map((r) => ({
    ...ref(r),
    from: (r.from_status as ServerStatus) ?? null,
    changes: Number(r.changes),
    lastChangedAt: asDate(r.last_changed_at)!,
  }));
}

function ref(r: Record<string, unknown>): ServerRef {
  return {
    id: String(r.id),
    name: String(r.name),
    environment: r.environment as Environment,
    status: r.status as ServerStatus,
  };
}

async function offlineLong(db: Db, now: Date): Promise<OfflineServer[]> {
  const cutoff = new Date(now.getTime() - OFFLINE_LONG_MS).toISOString();
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, name, environment, status, status_changed_at from servers
        where status = 'offline' and (status_changed_at is null or status_changed_at <= ${cutoff}::timestamptz)
        order by status_changed_at nulls first, name limit ${LIST_LIMIT}`,
  );
  return rows.map((r) => ({ ...ref(r), offlineSince: asDate(r.status_changed_at) }));
}

async function highUsage(db: Db): Promise<HighUsageServer[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, name, environment, status, cpu_usage, memory_usage, disk_usage from servers
        where status <> 'maintenance'
          and (cpu_usage >= ${HIGH_USAGE_PERCENT} or memory_usage >= ${HIGH_USAGE_PERCENT} or disk_usage >= ${HIGH_USAGE_PERCENT})
        order by greatest(cpu_usage, memory_usage, disk_usage) desc, name limit ${LIST_LIMIT}`,
  );
  return rows.map((r) => ({
    ...ref(r),
    cpu: Number(r.cpu_usage),
    memory: Number(r.memory_usage),
    disk: Number(r.disk_usage),
  }));
}

async function staleMetrics(db: Db, now: Date): Promise<StaleServer[]> {
  const cutoff = new Date(now.getTime() - STALE_METRICS_MS).toISOString();
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, name, environment, status, metrics_updated_at from servers
        where status in ('online', 'warning') and (metrics_updated_at is null or metrics_updated_at < ${cutoff}::timestamptz)
        order by metrics_updated_at nulls first, name limit ${LIST_LIMIT}`,
  );
  return rows.map((r) => ({ ...ref(r), metricsUpdatedAt: asDate(r.metrics_updated_at) }));
}

/** The live documents linked to these servers that `reader` may read, by server id, titles in order. */
async function runbooksOf(db: Db, serverIds: string[], reader: Actor): Promise<Record<string, RunbookRef[]>> {
  if (!serverIds.length) return {};
  const rows = await db
    .select({ serverId: serverDocuments.serverId, id: documents.id, space: documents.space, title: documents.title })
    .from(serverDocuments)
    .innerJoin(documents, eq(documents.id, serverDocuments.documentId))
    .where(and(inArray(serverDocuments.serverId, serverIds), isNull(documents.deletedAt), readableBy(reader)))
    .orderBy(asc(documents.title));
  const byServer: Record<string, RunbookRef[]> = {};
  for (const { serverId, ...doc } of rows) {
    byServer[serverId] ??= [];
    byServer[serverId].push(doc);
  }
  return byServer;
}

/** The fleet summary; "changed" covers the time since the last successful report run (or the last 24 hours). */
export async function buildFleetReport(db: Db, opts: { now?: Date; since?: Date } = {}): Promise<FleetReport> {
  const now = opts.now ?? new Date();
  const since =
    opts.since ?? (await lastSuccessfulRunStart(db, HEALTH_REPORT_JOB)) ?? new Date(now.getTime() - DEFAULT_WINDOW_MS);
  const [c, changed, offline, high, stale] = [
    await counts(db),
    await changedSince(db, since),
    await offlineLong(db, now),
    await highUsage(db),
    await staleMetrics(db, now),
  ];
  return { generatedAt: now, since, ...c, changed, offlineLong: offline, highUsage: high, staleMetrics: stale };
}

/** The fleet report with the runbooks `reader` may read of each server that changed state or is offline. */
export async function withRunbooks(db: Db, fleet: FleetReport, reader: Actor): Promise<HealthReport> {
  const ids = [...new Set([...fleet.changed, ...fleet.offlineLong].map((s) => s.id))];
  return { ...fleet, runbooks: await runbooksOf(db, ids, reader) };
}

/** The whole report as `reader` sees it. */
export async function buildHealthReport(
  db: Db,
  reader: Actor,
  opts: { now?: Date; since?: Date } = {},
): Promise<HealthReport> {
  return withRunbooks(db, await buildFleetReport(db, opts), reader);
}

export interface ReportRecipient {
  id: string;
  /** Their role: which runbooks their copy lists. */
  role: string;
  email: string;
  firstName: string | null;
  timezone: string;
}

/** Active admins, and active users who switched on health reports in their settings (timezone: saved, else the sign-in default). */
export function reportRecipients(db: Db): Promise<ReportRecipient[]> {
  return queryRows<ReportRecipient>(
    db,
    sql`select u.id, u.role, u.email, u.first_name as "firstName", coalesce(p.timezone, ${DEFAULT_TIMEZONE}) as timezone
        from users u left join user_preferences p on p.user_id = u.id
        where u.account_status = 'active' and (u.role = 'admin' or p.health_reports = true)
        order by u.email`,
  );
}
