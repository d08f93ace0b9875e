import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';

export const environmentFilters = ['all', 'production', 'staging', 'development'] as const;
export type EnvironmentFilter = (typeof environmentFilters)[number];

/** Servers shown in the overview table; the rest are one click away on /infrastructure. */
export const OVERVIEW_ROWS = 10;

export interface DashboardStats {
  servers: { total: number; thisMonth: number; online: number; warning: number; offline: number; maintenance: number };
  documents: { total: number; thisWeek: number };
  ai: { total: number; today: number };
}

/**
 * Every dashboard figure in one round trip. The period starts (in the user's timezone) are worked out
 * once, in a materialised CTE, so each count is an index range; the live-item total is the counter the
 * document_counts triggers keep.
 */
export async function dashboardStats(db: Db, timezone: string): Promise<DashboardStats> {
  const [r] = await queryRows<Record<string, string | number>>(
    db,
    sql`with local as materialized (select now() at time zone ${timezone} as now),
        bounds as materialized (
          select date_trunc('month', local.now) at time zone ${timezone} as month,
                 date_trunc('week', local.now) at time zone ${timezone} as week,
                 date_trunc('day', local.now) at time zone ${timezone} as day
          from local)
      select
      (select count(*) from servers) as servers_total,
      (select count(*) from servers where created_at >= (select month from bounds)) as servers_month,
      (select count(*) from servers where status = 'online') as servers_online,
      (select count(*) from servers where status = 'warning') as servers_warning,
      (select count(*) from servers where status = 'offline') as servers_offline,
      (select count(*) from servers where status = 'maintenance') as servers_maintenance,
      (select coalesce(sum(live), 0) from document_counts) as documents_total,
      (select count(*) from documents where deleted_at is null and created_at >= (select week from bounds)) as documents_week,
      (select count(*) from ai_interactions) as ai_total,
      (select count(*) from ai_interactions where created_at >= (select day from bounds)) as ai_today`,
  );
  const n = (k: string) => Number(r[k] ?? 0);
  return {
    servers: { total: n('servers_total'), thisMonth: n('servers_month'), online: n('servers_online'), warning: n('servers_warning'), offline: n('servers_offline'), maintenance: n('servers_maintenance') },
    documents: { total: n('documents_total'), thisWeek: n('documents_week') },
    ai: { total: n('ai_total'), today: n('ai_today') },
  };
}

/** GET /api/analytics/stats: server and document totals. */
export async function analyticsStats(db: Db): Promise<{ servers: { total: number }; documents: { total: number } }> {
  const [r] = await queryRows<{ servers: string | number; documents: string | number }>(
    db,
    sql`select (select count(*) from servers) as servers, (select coalesce(sum(live), 0) from document_counts) as documents`,
  );
  return { servers: { total: Number(r.servers) }, documents: { total: Number(r.documents) } };
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

/** The newest live knowledge items with their authors. */
export async function recentArticles(db: Db, limit = 5): Promise<RecentArticle[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select d.id, d.title, d.is_template, d.is_published, d.created_at, d.updated_at,
               u.first_name, u.last_name, u.email
        from documents d left join users u on u.id = d.author_id
        where d.space = 'knowledge' and d.deleted_at is null
        order by d.updated_at desc limit ${limit}`,
  );
  return rows.map((r) => ({
    id: String(r.id),
    title: String(r.title),
    isTemplate: Boolean(r.is_template),
    isPublished: Boolean(r.is_published),
    createdAt: new Date(r.created_at as string).toISOString(),
    updatedAt: new Date(r.updated_at as string).toISOString(),
    author: r.email ? { firstName: (r.first_name as string) ?? null, lastName: (r.last_name as string) ?? null, email: String(r.email) } : null,
  }));
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
}

/** Problems first: the order of the dashboard overview (servers_overview_idx indexes exactly this). */
const serverPriority = sql`(case status when 'offline' then 0 when 'warning' then 1 else 2 end)`;

/** Servers for the overview table (problems first, then by name) and how many match the filter. */
export async function overviewServers(db: Db, environment: EnvironmentFilter, limit = OVERVIEW_ROWS): Promise<{ rows: OverviewServer[]; matching: number; total: number }> {
  const where = environment === 'all' ? sql`true` : sql`environment = ${environment}`;
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, name, ip_address, status, environment, cpu_usage, memory_usage, uptime,
               (select count(*) from servers where ${where}) as matching, (select count(*) from servers) as total
        from servers where ${where}
        order by ${serverPriority}, name
        limit ${limit}`,
  );
  const total = rows.length ? Number(rows[0].total) : Number((await queryRows<{ n: string }>(db, sql`select count(*) as n from servers`))[0].n);
  return {
    rows: rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      ipAddress: (r.ip_address as string) ?? null,
      status: String(r.status),
      environment: String(r.environment),
      cpuUsage: Number(r.cpu_usage ?? 0),
      memoryUsage: Number(r.memory_usage ?? 0),
      uptime: Number(r.uptime ?? 0),
    })),
    matching: rows.length ? Number(rows[0].matching) : 0,
    total,
  };
}
