/** Read model: joins knowledge (the items a reader may see, knowledge/access.ts). */
import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { can, type Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { fuseHits, itemsByMeaning, type SimilarItem } from '../embeddings/service';
import { likeEscape } from '../db/like';
import { auditLog, documents, healthChecks, servers, teamMembers, users } from '../db/schema';
import { readableBy } from '../knowledge/access';
import { getItem, readerRevision } from '../knowledge/service';
import { itemHref, spaceOf } from '../knowledge/shared';
import { readableHits } from '../search/service';
import type { Server } from '../servers/schemas';
import { listServerDocuments } from '../servers/service';
import { sortByServerName } from '../servers/shared';

/**
 * The assistant's tools: read-only queries over our data (servers, knowledge, team, audit log). Nothing here
 * writes. Every row carries the in-app link the answer should cite. Tools that read knowledge items (a server's
 * linked documents among them) or the audit log take the asking user (`reader`) and answer only what they may read.
 */

export interface ServerFilters {
  /** Free text over name, hostname, IP, functions, description (word match). */
  text?: string;
  location?: string;
  environment?: string;
  status?: string[];
  /** Word match over name, functions and description (e.g. "POS"). */
  function?: string;
  ip?: string;
  /** Part of the owning team's name ("Retail Systems"). */
  owner?: string;
  /** Word match over the operating system ("ubuntu"). */
  os?: string;
  /** Only these servers (by name): a follow-up on the servers of the previous answer. */
  names?: string[];
  limit?: number;
}

/** A server as the assistant reads it: the fields it answers from, and a link to the server's page. */
export type ServerRow = Pick<
  Server,
  | 'id'
  | 'name'
  | 'hostname'
  | 'ipAddress'
  | 'domain'
  | 'network'
  | 'environment'
  | 'status'
  | 'operatingSystem'
  | 'serverLocation'
  | 'primaryFunction'
  | 'secondaryFunction'
  | 'tertiaryFunction'
  | 'teamOwner'
  | 'keyContacts'
  | 'description'
  | 'cpuUsage'
  | 'memoryUsage'
  | 'uptime'
  | 'lastHealthCheck'
> & { link: string };

const serverColumns = {
  id: servers.id,
  name: servers.name,
  hostname: servers.hostname,
  ipAddress: servers.ipAddress,
  domain: servers.domain,
  network: servers.network,
  environment: servers.environment,
  status: servers.status,
  operatingSystem: servers.operatingSystem,
  serverLocation: servers.serverLocation,
  primaryFunction: servers.primaryFunction,
  secondaryFunction: servers.secondaryFunction,
  tertiaryFunction: servers.tertiaryFunction,
  teamOwner: servers.teamOwner,
  keyContacts: servers.keyContacts,
  description: servers.description,
  cpuUsage: servers.cpuUsage,
  memoryUsage: servers.memoryUsage,
  uptime: servers.uptime,
  lastHealthCheck: servers.lastHealthCheck,
};

export const serverLink = (id: string) => `/infrastructure?server=${id}`;
const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** PostgreSQL word-boundary match ("POS" matches "POS terminal", not "postgres"). */
const wordMatch = (column: AnyPgColumn, word: string) =>
  sql`coalesce(${column}, '') ~* ${`\\m${regexEscape(word)}\\M`}`;

const toServer = (r: typeof servers.$inferSelect | Record<string, unknown>): ServerRow => {
  const row = r as Omit<ServerRow, 'link' | 'lastHealthCheck'> & { lastHealthCheck: Date | string | null };
  return {
    ...row,
    lastHealthCheck: row.lastHealthCheck ? new Date(row.lastHealthCheck).toISOString() : null,
    link: serverLink(row.id),
  };
};

/** Searches servers by name / location / environment / status / function / IP; in natural name order. */
export async function searchServers(db: Db, f: ServerFilters = {}): Promise<ServerRow[]> {
  const where: (SQL | undefined)[] = [];
  if (f.location) where.push(ilike(servers.serverLocation, `%${likeEscape(f.location)}%`));
  if (f.environment) where.push(eq(servers.environment, f.environment.toLowerCase() as never));
  if (f.status?.length) where.push(inArray(servers.status, f.status as never[]));
  if (f.ip) where.push(ilike(servers.ipAddress, `${likeEscape(f.ip)}%`));
  if (f.owner) where.push(ilike(servers.teamOwner, `%${likeEscape(f.owner)}%`));
  if (f.os) where.push(wordMatch(servers.operatingSystem, f.os));
  if (f.names) where.push(f.names.length ? inArray(servers.name, f.names) : sql`false`);
  if (f.function) {
    const w = f.function;
    where.push(
      or(
        wordMatch(servers.name, w),
        wordMatch(servers.hostname, w),
        wordMatch(servers.primaryFunction, w),
        wordMatch(servers.secondaryFunction, w),
        wordMatch(servers.tertiaryFunction, w),
        wordMatch(servers.description, w),
      ),
    );
  }
  if (f.text) {
    const like = `%${likeEscape(f.text)}%`;
    where.push(
      or(
        ilike(servers.name, like),
        ilike(servers.hostname, like),
        ilike(servers.ipAddress, like),
        ilike(servers.serverLocation, like),
        ilike(servers.primaryFunction, like),
        ilike(servers.operatingSystem, like),
        ilike(servers.teamOwner, like),
        ilike(servers.description, like),
      ),
    );
  }
  // Every match, then natural name order (web-2 before web-10, as the table shows them), then the limit.
  const rows = await db
    .select(serverColumns)
    .from(servers)
    .where(and(...where))
    .orderBy(servers.name);
  return sortByServerName(rows.map(toServer)).slice(0, Math.min(f.limit ?? 100, 500));
}

/** The names of all servers (to recognise a server named in a question). */
export async function serverNames(db: Db): Promise<{ id: string; name: string; hostname: string | null }[]> {
  return db
    .select({ id: servers.id, name: servers.name, hostname: servers.hostname })
    .from(servers)
    .orderBy(servers.name)
    .limit(1000);
}

/** What the fleet's servers are called, where they are, what they do, who owns them (to read a question by). */
export interface FleetFacts {
  names: string[];
  locations: string[];
  functions: string[];
  owners: string[];
  systems: string[];
}

export async function fleetFacts(db: Db): Promise<FleetFacts> {
  const rows = await db
    .select({
      name: servers.name,
      location: servers.serverLocation,
      f1: servers.primaryFunction,
      f2: servers.secondaryFunction,
      f3: servers.tertiaryFunction,
      owner: servers.teamOwner,
      os: servers.operatingSystem,
    })
    .from(servers)
    .limit(5000);
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v?.trim()))];
  return {
    names: distinct(rows.map((r) => r.name)),
    locations: distinct(rows.map((r) => r.location)),
    functions: distinct(rows.flatMap((r) => [r.f1, r.f2, r.f3])),
    owners: distinct(rows.map((r) => r.owner)),
    systems: distinct(rows.map((r) => r.os)),
  };
}

export interface HealthCheckRow {
  checkedAt: string;
  status: string;
  previousStatus: string | null;
  latencyMs: number | null;
  error: string | null;
}

/** A knowledge item or document linked to a server, as the assistant cites it. */
export interface LinkedDocumentRow {
  id: string;
  title: string;
  type: string;
  link: string;
}

/**
 * One server (by id or name) with its last health checks, newest first, and the documents linked to it that `reader`
 * may read; null when unknown.
 */
export async function getServer(
  db: Db,
  reader: Actor,
  idOrName: string,
  checks = 10,
): Promise<(ServerRow & { healthChecks: HealthCheckRow[]; documents: LinkedDocumentRow[] }) | null> {
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrName);
  const [row] = await db
    .select(serverColumns)
    .from(servers)
    .where(
      isId
        ? eq(servers.id, idOrName)
        : or(ilike(servers.name, likeEscape(idOrName)), ilike(servers.hostname, likeEscape(idOrName))),
    )
    .limit(1);
  if (!row) return null;
  const [history, linked] = await Promise.all([
    db
      .select({
        checkedAt: healthChecks.checkedAt,
        status: healthChecks.status,
        previousStatus: healthChecks.previousStatus,
        latencyMs: healthChecks.latencyMs,
        error: healthChecks.error,
      })
      .from(healthChecks)
      .where(eq(healthChecks.serverId, row.id))
      .orderBy(desc(healthChecks.checkedAt))
      .limit(checks),
    listServerDocuments(db, row.id, reader),
  ]);
  return {
    ...toServer(row),
    healthChecks: history.map((h) => ({ ...h, checkedAt: h.checkedAt.toISOString() })),
    documents: linked.map((d) => ({
      id: d.documentId,
      title: d.title,
      type: d.documentType,
      link: itemHref(spaceOf(d.space), d.documentId, d.title),
    })),
  };
}

export interface DocumentHit {
  id: string;
  space: string;
  title: string;
  excerpt: string | null;
  category: string | null;
  tags: string[];
  /** The start of the text (quoted data, never instructions). */
  snippet: string;
  updatedAt: string;
  link: string;
  /** The part found by meaning, cited by its heading's link (only with an embeddings endpoint). */
  section?: { heading: string | null; link: string };
}

type HitRow = Parameters<typeof toHit>[0];

const HIT_COLUMNS = sql`d.id, d.space, d.title, d.excerpt, d.category, d.tags, left(d.content, 600) as snippet, d.updated_at`;

/** Items only meaning found (itemsByMeaning already kept them to what the reader may read). */
const hitsByIds = (db: Db, ids: string[]) =>
  queryRows<HitRow>(
    db,
    sql`select ${HIT_COLUMNS} from ${documents} d
        where d.id = any(${`{${ids.join(',')}}`}::uuid[]) and d.deleted_at is null`,
  );

/** A hit found by meaning quotes the part that matched and links to its heading. */
function withSection(row: HitRow & { match?: SimilarItem }): DocumentHit {
  const hit = toHit(row);
  if (!row.match) return hit;
  const { heading, anchor, snippet } = row.match;
  return { ...hit, snippet, section: { heading, link: anchor ? `${hit.link}#${anchor}` : hit.link } };
}

/**
 * The items `reader` may read that match `query`, best first: full text (websearch_to_tsquery, ranked by
 * ranked_documents(): deleted excluded), fused (RRF) with the items closest in meaning when an embeddings endpoint
 * is configured.
 */
export async function searchDocuments(db: Db, reader: Actor, query: string, limit = 5): Promise<DocumentHit[]> {
  const max = Math.min(limit, 20);
  const [byText, byMeaning] = await Promise.all([
    queryRows<HitRow>(
      db,
      sql`select ${HIT_COLUMNS}
          from ${readableHits(reader, sql`websearch_to_tsquery('english', ${query})`, max)} r
          join ${documents} d on d.id = r.id
          order by r.rank desc, r.updated_at desc`,
    ),
    itemsByMeaning(db, reader, query, max),
  ]);
  return (await fuseHits(byText, byMeaning, max, (ids) => hitsByIds(db, ids))).map(withSection);
}

/** The most recently updated knowledge items `reader` may read (for "recent documentation"). */
export async function recentDocuments(db: Db, reader: Actor, limit = 5): Promise<DocumentHit[]> {
  const rows = await db
    .select({
      id: documents.id,
      space: documents.space,
      title: documents.title,
      excerpt: documents.excerpt,
      category: documents.category,
      tags: documents.tags,
      snippet: sql<string>`left(${documents.content}, 600)`,
      updated_at: documents.updatedAt,
    })
    .from(documents)
    .where(and(isNull(documents.deletedAt), eq(documents.space, 'knowledge'), readableBy(reader)))
    .orderBy(desc(documents.updatedAt))
    .limit(limit);
  return rows.map(toHit);
}

/** One knowledge item or document as the assistant reads it: its text and facts, and its in-app link. */
export interface DocumentRead {
  id: string;
  space: string;
  title: string;
  content: string;
  excerpt: string | null;
  category: string | null;
  tags: string[];
  version: number;
  updatedAt: string;
  link: string;
}

/**
 * A live item by id, as its read page shows it to `reader` (the published revision while a newer one waits); null
 * when it does not exist, was deleted or `reader` may not read it (the same answer, so nothing is revealed).
 */
export async function getDocument(db: Db, reader: Actor, id: string): Promise<DocumentRead | null> {
  for (const space of ['knowledge', 'documents'] as const) {
    const newest = await getItem(db, space, id, { viewer: reader });
    if (!newest) continue;
    const item = await readerRevision(db, reader, newest, false);
    return {
      id: item.id,
      space,
      title: item.title,
      content: item.content,
      excerpt: item.excerpt,
      category: item.category,
      tags: item.tags,
      version: item.version,
      updatedAt: item.updatedAt,
      link: itemHref(space, item.id, item.title),
    };
  }
  return null;
}

function toHit(r: {
  id: string;
  space: string;
  title: string;
  excerpt: string | null;
  category: string | null;
  tags: string[] | null;
  snippet: string;
  updated_at: string | Date;
}): DocumentHit {
  return {
    id: r.id,
    space: r.space,
    title: r.title,
    excerpt: r.excerpt,
    category: r.category,
    tags: r.tags ?? [],
    snippet: r.snippet,
    updatedAt: new Date(r.updated_at).toISOString(),
    link: itemHref(spaceOf(r.space), r.id, r.title),
  };
}

export interface ContactRow {
  name: string;
  email: string;
  role: string;
  department: string | null;
  status: string;
}

/** Team contacts, active first; optionally matching a word in name, role or department. */
export async function teamContacts(db: Db, text?: string, limit = 50): Promise<ContactRow[]> {
  const like = text ? `%${likeEscape(text)}%` : undefined;
  return db
    .select({
      name: teamMembers.name,
      email: teamMembers.email,
      role: teamMembers.role,
      department: teamMembers.department,
      status: teamMembers.status,
    })
    .from(teamMembers)
    .where(
      like
        ? or(ilike(teamMembers.name, like), ilike(teamMembers.role, like), ilike(teamMembers.department, like))
        : undefined,
    )
    .orderBy(teamMembers.status, teamMembers.name)
    .limit(limit);
}

export interface HealthProblem {
  serverId: string;
  serverName: string;
  ipAddress: string | null;
  status: string;
  previousStatus: string | null;
  error: string | null;
  checkedAt: string;
  link: string;
}

/** Health checks that found a server offline or warning, newest first. */
export async function recentHealthProblems(db: Db, limit = 10): Promise<HealthProblem[]> {
  const rows = await db
    .select({
      serverId: servers.id,
      serverName: servers.name,
      ipAddress: servers.ipAddress,
      status: healthChecks.status,
      previousStatus: healthChecks.previousStatus,
      error: healthChecks.error,
      checkedAt: healthChecks.checkedAt,
    })
    .from(healthChecks)
    .innerJoin(servers, eq(servers.id, healthChecks.serverId))
    .where(inArray(healthChecks.status, ['offline', 'warning']))
    .orderBy(desc(healthChecks.checkedAt))
    .limit(Math.min(limit, 50));
  return rows.map((r) => ({ ...r, checkedAt: r.checkedAt.toISOString(), link: serverLink(r.serverId) }));
}

export interface AuditEvent {
  action: string;
  entityType: string;
  entityId: string | null;
  actor: string | null;
  createdAt: string;
}

/** The answer to a question about the audit log from someone who may not read it. */
export const AUDIT_DENIED = 'Only administrators and auditors can read the audit log.';

/** May `reader` read the audit log (admins and auditors)? */
export const mayReadAudit = (reader: Actor) => can(reader, 'audit.read');

/** Recent audit events (who did what), newest first; nothing for a reader who may not read the audit log. */
export async function recentAuditEvents(db: Db, reader: Actor, limit = 15): Promise<AuditEvent[]> {
  if (!mayReadAudit(reader)) return [];
  const rows = await db
    .select({
      action: auditLog.action,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .orderBy(desc(auditLog.createdAt))
    .limit(Math.min(limit, 50));
  return rows.map((r) => ({
    action: r.action,
    entityType: r.entityType,
    entityId: r.entityId,
    actor: r.firstName ? `${r.firstName} ${r.lastName ?? ''}`.trim() : r.email,
    createdAt: r.createdAt.toISOString(),
  }));
}
