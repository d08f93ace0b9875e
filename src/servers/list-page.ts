import { and, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { likeEscape } from '../db/like';
import { servers, serverUptime } from '../db/schema';
import type { ServerPageQuery } from './list-query';
import { nameOrder } from './list-order';
import { toServer } from './service';
import type { Availability, ListedServer, ServerPage, ServerSortKey } from './shared/list';

/**
 * One page of the inventory: the ids in order (the cached name order alone when nothing filters and the sort is by
 * name; otherwise one narrow read of id + sort key of the matching servers, ordered here with the name order as the
 * tie-break), then the page's rows only. Health checks never rebuild anything: they change rows, not the name order.
 */
export async function serverPage(
  db: Db,
  query: ServerPageQuery,
  options: { around?: string | null; clamp?: boolean } = {},
): Promise<ServerPage> {
  const desc = query.sort.startsWith('-');
  const key = (desc ? query.sort.slice(1) : query.sort) as ServerSortKey;
  const slice =
    key === 'server'
      ? await byName(db, query, desc, options)
      : await byKey(db, query, SORT_KEYS[key], desc, options.clamp ?? false);
  const withAvailability = query.columns?.split(',').includes('availability') ?? false;
  return {
    servers: await rowsOf(db, slice.ids, withAvailability),
    total: slice.total,
    page: slice.page,
    pageSize: query.pageSize,
  };
}

interface Slice {
  ids: string[];
  total: number;
  page: number;
}

/** The page to show: the one holding `around` when it is there, else the asked one (clamped to the last on pages). */
function pageNumber(total: number, query: ServerPageQuery, at: number, clamp: boolean): number {
  if (at >= 0) return Math.floor(at / query.pageSize) + 1;
  return clamp ? Math.min(query.page, Math.max(1, Math.ceil(total / query.pageSize))) : query.page;
}

/**
 * Natural name order: the cached order itself when nothing filters; else the matching ids (one text, not a row
 * each: 50,000 rows would cost more to decode than to read) put in the cached order.
 */
async function byName(
  db: Db,
  query: ServerPageQuery,
  desc: boolean,
  options: { around?: string | null; clamp?: boolean },
): Promise<Slice> {
  const order = await nameOrder(db);
  const where = filtersOf(query);
  let ids = order.ids;
  if (where.length) {
    const [row] = await queryRows<{ ids: string | null }>(
      db,
      sql`select string_agg(${servers.id}::text, ',') as ids from ${servers} where ${and(...where)}`,
    );
    // Sorting positions (numbers) is several times faster than sorting ids by a looked-up position.
    const matching = row.ids ? row.ids.split(',') : [];
    const ranks = Float64Array.from(matching, (id) => order.rank.get(id) ?? -1).sort();
    // An id added since the order was read (rank -1) is left out until the next request rebuilds it.
    ids = Array.from(ranks.subarray(ranks.findIndex((r) => r >= 0) >>> 0), (r) => order.ids[r]);
  }
  if (desc) ids = [...ids].reverse();
  const page = pageNumber(ids.length, query, options.around ? ids.indexOf(options.around) : -1, !!options.clamp);
  return { ids: ids.slice((page - 1) * query.pageSize, page * query.pageSize), total: ids.length, page };
}

/** Any other column: the database sorts (the name as it orders names breaks ties) and answers the page only. */
async function byKey(db: Db, query: ServerPageQuery, key: SQL, desc: boolean, clamp: boolean): Promise<Slice> {
  const where = filtersOf(query);
  const filter = where.length ? sql`where ${and(...where)}` : sql``;
  const [{ n }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${servers} ${filter}`);
  const page = pageNumber(n, query, -1, clamp);
  const direction = desc ? sql`desc` : sql`asc`;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select ${servers.id} as id from ${servers} ${filter}
        order by ${key} ${direction}, ${servers.name} ${direction}
        limit ${query.pageSize} offset ${(page - 1) * query.pageSize}`,
  );
  return { ids: rows.map((r) => r.id), total: n, page };
}

/** Whether the server exists (a ?server= link to a deleted one says so). */
export async function serverExists(db: Db, id: string): Promise<boolean> {
  return (await nameOrder(db)).rank.has(id);
}

/** Status order when sorting by status: problems first; a server in a maintenance window sorts as maintenance. */
const statusRank = sql`case when ${servers.maintenanceWindowId} is not null then 3 else (case ${servers.status}
  when 'offline' then 0 when 'warning' then 1 when 'online' then 2 when 'maintenance' then 3 else 4 end) end`;

/** A pushed metric, or -1 below every known value when no agent ever pushed one (the table shows "—"). */
const metric = (column: AnyPgColumn) =>
  sql`case when ${servers.metricsUpdatedAt} is null then -1 else ${column}::float8 end`;
const textKey = (column: AnyPgColumn) => sql`lower(coalesce(${column}, ''))`;

const SORT_KEYS: Record<Exclude<ServerSortKey, 'server'>, SQL> = {
  status: statusRank,
  environment: sql`${servers.environment}`,
  cpu: metric(servers.cpuUsage),
  memory: metric(servers.memoryUsage),
  uptime: metric(servers.uptime),
  lastCheck: sql`coalesce(extract(epoch from ${servers.lastHealthCheck}), 0)::float8`,
  os: textKey(servers.operatingSystem),
  serverType: textKey(servers.serverType),
  location: textKey(servers.serverLocation),
  primaryFunction: textKey(servers.primaryFunction),
  team: textKey(servers.teamOwner),
  availability: sql`coalesce((select ${serverUptime.pct30d} from ${serverUptime} where ${serverUptime.serverId} = ${servers.id}), -1)::float8`,
};

/** The spec's search fields as one lower-case text (name, IP, host, domain, OS, functions, team, location, contacts). */
const searchable = sql`lower(${servers.name} || E'\n' || coalesce(${servers.ipAddress}, '') || E'\n' ||
  coalesce(${servers.hostname}, '') || E'\n' || coalesce(${servers.domain}, '') || E'\n' ||
  coalesce(${servers.operatingSystem}, '') || E'\n' || coalesce(${servers.primaryFunction}, '') || E'\n' ||
  coalesce(${servers.secondaryFunction}, '') || E'\n' || coalesce(${servers.tertiaryFunction}, '') || E'\n' ||
  coalesce(${servers.teamOwner}, '') || E'\n' || coalesce(${servers.serverLocation}, '') || E'\n' ||
  coalesce(${servers.keyContacts}, ''))`;

function filtersOf(query: ServerPageQuery): SQL[] {
  const where: SQL[] = [];
  if (query.environment) where.push(eq(servers.environment, query.environment));
  if (query.status === 'maintenance')
    where.push(or(eq(servers.status, 'maintenance'), isNotNull(servers.maintenanceWindowId))!);
  else if (query.status) where.push(and(eq(servers.status, query.status), isNull(servers.maintenanceWindowId))!);
  const q = query.q.trim().toLowerCase();
  if (q) where.push(sql`${searchable} like ${`%${likeEscape(q)}%`}`);
  return where;
}

/** The page's rows in the given order, with their availability when asked (a join on these rows only). */
async function rowsOf(db: Db, ids: string[], withAvailability: boolean): Promise<ListedServer[]> {
  if (ids.length === 0) return [];
  const [rows, uptime] = await Promise.all([
    db.select().from(servers).where(inArray(servers.id, ids)),
    withAvailability ? db.select().from(serverUptime).where(inArray(serverUptime.serverId, ids)) : [],
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const availability = new Map(uptime.map((u) => [u.serverId, u]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return []; // deleted between the two reads
    const listed: ListedServer = {
      ...toServer(r),
      maintenanceWindowId: r.maintenanceWindowId,
      flappingSince: r.flappingSince ? r.flappingSince.toISOString() : null,
    };
    if (withAvailability) listed.availability = availabilityOf(availability.get(id));
    return [listed];
  });
}

function availabilityOf(u: typeof serverUptime.$inferSelect | undefined): Availability | null {
  if (!u) return null;
  return { '24h': u.pct24h, '7d': u.pct7d, '30d': u.pct30d, '90d': u.pct90d };
}
