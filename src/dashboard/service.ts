/** Read model: joins knowledge (the items a reader may see, knowledge/access.ts), besides servers and ai tables. */
import { sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { readableBy, readableRestricted, readsEverything } from '../knowledge/access';

export const environmentFilters = ['all', 'production', 'staging', 'development'] as const;
export type EnvironmentFilter = (typeof environmentFilters)[number];

/** Servers shown in the overview table; the rest are one click away on /infrastructure. */
export const OVERVIEW_ROWS = 10;
/** Rows in the Recent Knowledge Base panel. */
export const RECENT_ROWS = 5;

export interface DashboardStats {
  servers: { total: number; thisMonth: number; online: number; warning: number; offline: number; maintenance: number };
  documents: { total: number; thisWeek: number };
  ai: { total: number; today: number };
}

export interface RecentArticle {
  id: string;
  title: string;
  isTemplate: boolean;
  isPublished: boolean;
  createdAt: string;
  updatedAt: string;
  author: { firstName: string | null; lastName: string | null; email: string } | null;
}

export interface OverviewServer {
  id: string;
  name: string;
  ipAddress: string | null;
  status: string;
  environment: string;
  cpuUsage: number;
  memoryUsage: number;
  uptime: number;
  /** When the server's agent last pushed metrics; null: the figures above were never measured. */
  metricsUpdatedAt: string | null;
}

export interface Overview {
  rows: OverviewServer[];
  /** Servers in the chosen environment. */
  matching: number;
  total: number;
}

/** Start of this month / week / day in the user's timezone: a one-time subquery, not worked out per row. */
const periodStart = (unit: 'month' | 'week' | 'day', timezone: string) =>
  sql`(select date_trunc(${unit}, now() at time zone ${timezone}) at time zone ${timezone})`;

/**
 * A row limit written into the SQL text. As a parameter, PostgreSQL cannot know how few rows are wanted
 * when it plans the prepared statement once for all values, so it would plan the statement again on
 * every run instead (these limits are constants of ours, never user input).
 */
const rowLimit = (n: number) => sql.raw(String(Math.trunc(n)));

const inEnvironment = (environment: EnvironmentFilter) =>
  environment === 'all' ? sql`true` : sql`environment = ${environment}`;

/** Every server figure (one row): the counters the server_counts triggers keep, and a range for "this month". */
const serverCounts = (timezone: string, environment: EnvironmentFilter) => sql`(
  select coalesce(sum(n), 0) as servers_total,
         (select count(*) from servers where created_at >= ${periodStart('month', timezone)}) as servers_month,
         coalesce(sum(n) filter (where status = 'online'), 0) as servers_online,
         coalesce(sum(n) filter (where status = 'warning'), 0) as servers_warning,
         coalesce(sum(n) filter (where status = 'offline'), 0) as servers_offline,
         coalesce(sum(n) filter (where status = 'maintenance'), 0) as servers_maintenance,
         coalesce(sum(n) filter (where ${inEnvironment(environment)}), 0) as servers_matching
  from server_counts)`;

/**
 * Live items the reader may read: the kept counters (every live item, and how many are restricted) less the
 * restricted ones, plus those of them the reader may read (their own and those shared with them, by index). An admin
 * reads the counter as it is.
 */
const readableLive = (reader: Actor) => {
  const live = sql`(select coalesce(sum(live), 0) from document_counts)`;
  if (readsEverything(reader)) return live;
  const restricted = sql`(select coalesce(sum(restricted), 0) from document_counts)`;
  const own = reader ? sql`(select count(*) from ${readableRestricted(reader)} r)` : sql`0`;
  return sql`(${live} - ${restricted} + ${own})`;
};

/** Live items the reader may read (the document_counts counters less hidden ones) and those created this week (one row). */
const documentCounts = (reader: Actor, timezone: string) => sql`(
  select ${readableLive(reader)} as documents_total,
         (select count(*) from documents
          where deleted_at is null and created_at >= ${periodStart('week', timezone)} and ${readableBy(reader)}) as documents_week)`;

/** Assistant answers in all and today (one row). */
const aiCounts = (timezone: string) => sql`(
  select count(*) as ai_total, count(*) filter (where created_at >= ${periodStart('day', timezone)}) as ai_today from ai_interactions)`;

/** The newest live knowledge items the reader may read, with their authors, as one JSON array. */
const recentJson = (reader: Actor, limit: number) => sql`(
  select coalesce(json_agg(r order by r."updatedAt" desc), '[]') from (
    select d.id, d.title, d.is_template as "isTemplate", d.is_published as "isPublished",
           d.created_at as "createdAt", d.updated_at as "updatedAt",
           case when u.id is null then null
                else json_build_object('firstName', u.first_name, 'lastName', u.last_name, 'email', u.email) end as author
    from documents d left join users u on u.id = d.author_id
    where d.space = 'knowledge' and d.deleted_at is null and ${readableBy(reader, 'd')}
    order by d.updated_at desc limit ${rowLimit(limit)}) r)`;

/** Servers of one environment for the overview, problems first, then by name (servers_overview_idx), as JSON. */
const overviewJson = (environment: EnvironmentFilter, limit: number) => sql`(
  select coalesce(json_agg(r order by r.priority, r.name), '[]') from (
    select id, name, ip_address as "ipAddress", status, environment, coalesce(cpu_usage, 0) as "cpuUsage",
           coalesce(memory_usage, 0) as "memoryUsage", coalesce(uptime, 0) as uptime,
           metrics_updated_at as "metricsUpdatedAt",
           (case status when 'offline' then 0 when 'warning' then 1 else 2 end) as priority
    from servers where ${inEnvironment(environment)}
    order by (case status when 'offline' then 0 when 'warning' then 1 else 2 end), name limit ${rowLimit(limit)}) r)`;

type Row = Record<string, unknown>;
const n = (r: Row, key: string) => Number(r[key] ?? 0);

function toStats(r: Row): DashboardStats {
  return {
    servers: {
      total: n(r, 'servers_total'),
      thisMonth: n(r, 'servers_month'),
      online: n(r, 'servers_online'),
      warning: n(r, 'servers_warning'),
      offline: n(r, 'servers_offline'),
      maintenance: n(r, 'servers_maintenance'),
    },
    documents: { total: n(r, 'documents_total'), thisWeek: n(r, 'documents_week') },
    ai: { total: n(r, 'ai_total'), today: n(r, 'ai_today') },
  };
}

function toOverview(r: Row): Overview {
  // json columns arrive parsed from both drivers.
  const rows = (r.overview as (OverviewServer & { priority?: number })[]).map(
    ({ priority: _priority, ...server }) => server,
  );
  return { rows, matching: n(r, 'servers_matching'), total: n(r, 'servers_total') };
}

function toArticles(value: unknown): RecentArticle[] {
  return (value as RecentArticle[]).map((a) => ({
    ...a,
    createdAt: new Date(a.createdAt).toISOString(),
    updatedAt: new Date(a.updatedAt).toISOString(),
  }));
}

async function one(db: Db, query: SQL): Promise<Row> {
  const [row] = await queryRows<Row>(db, query);
  return row;
}

/**
 * Everything the dashboard shows `reader`, in one round trip: figures, recent knowledge and the server overview
 * (items they may not read are neither listed nor counted).
 */
export async function dashboardView(
  db: Db,
  reader: Actor,
  timezone: string,
  environment: EnvironmentFilter,
): Promise<{ stats: DashboardStats; articles: RecentArticle[]; infra: Overview }> {
  const r = await one(
    db,
    sql`select s.*, d.*, a.*, ${recentJson(reader, RECENT_ROWS)} as recent, ${overviewJson(environment, OVERVIEW_ROWS)} as overview
        from ${serverCounts(timezone, environment)} s, ${documentCounts(reader, timezone)} d, ${aiCounts(timezone)} a`,
  );
  return { stats: toStats(r), articles: toArticles(r.recent), infra: toOverview(r) };
}

/** The stat-card figures `reader` sees, alone (after a health check). */
export async function dashboardStats(db: Db, reader: Actor, timezone: string): Promise<DashboardStats> {
  return toStats(
    await one(
      db,
      sql`select s.*, d.*, a.* from ${serverCounts(timezone, 'all')} s, ${documentCounts(reader, timezone)} d, ${aiCounts(timezone)} a`,
    ),
  );
}

/** The Infrastructure Overview alone (the environment filter's htmx fragment, the table after a health check). */
export async function overviewServers(db: Db, timezone: string, environment: EnvironmentFilter): Promise<Overview> {
  return toOverview(
    await one(
      db,
      sql`select s.*, ${overviewJson(environment, OVERVIEW_ROWS)} as overview from ${serverCounts(timezone, environment)} s`,
    ),
  );
}

/** GET /api/analytics/stats: server totals and the documents `reader` may read. */
export async function analyticsStats(
  db: Db,
  reader: Actor,
): Promise<{ servers: { total: number }; documents: { total: number } }> {
  const r = await one(
    db,
    sql`select (select coalesce(sum(n), 0) from server_counts) as servers,
               ${readableLive(reader)} as documents`,
  );
  return { servers: { total: n(r, 'servers') }, documents: { total: n(r, 'documents') } };
}
