/** Read model: joins knowledge (the items a reader may see, knowledge/access.ts). */
import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { can, type Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { likeEscape } from '../db/like';
import { auditLog, documents, healthChecks, servers, teamMembers, users } from '../db/schema';
import { readableBy } from '../knowledge/access';
import { itemHref, spaceOf } from '../knowledge/shared';
import { readableHits } from '../search/service';
import type { Server } from '../servers/schemas';
import { sortByServerName } from '../servers/shared';

/**
 * The assistant's tools: read-only queries over our data (servers, knowledge, team, audit log). Nothing here
 * writes. Every row carries the in-app link the answer should cite. Tools that read knowledge items or the audit
 * log take the asking user (`reader`) and answer only what they may read.
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

export interface HealthCheckRow {
  checkedAt: string;
  status: string;
  previousStatus: string | null;
  latencyMs: number | null;
  error: string | null;
}

/** One server (by id or name) with its last health checks, newest first; null when unknown. */
export async function getServer(
  db: Db,
  idOrName: string,
  checks = 10,
): Promise<(ServerRow & { healthChecks: HealthCheckRow[] }) | null> {
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
  const history = await db
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
    .limit(checks);
  return { ...toServer(row), healthChecks: history.map((h) => ({ ...h, checkedAt: h.checkedAt.toISOString() })) };
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
}

/**
 * Full-text search over the items `reader` may read (websearch_to_tsquery, ranked by ranked_documents(): deleted
 * excluded), best first.
 */
export async function searchDocuments(db: Db, reader: Actor, query: string, limit = 5): Promise<DocumentHit[]> {
  const rows = await queryRows<{
    id: string;
    space: string;
    title: string;
    excerpt: string | null;
    category: string | null;
    tags: string[];
    snippet: string;
    updated_at: string | Date;
  }>(
    db,
    sql`select d.id, d.space, d.title, d.excerpt, d.category, d.tags, left(d.content, 600) as snippet, d.updated_at
        from ${readableHits(reader, sql`websearch_to_tsquery('english', ${query})`, Math.min(limit, 20))} r
        join ${documents} d on d.id = r.id
        order by r.rank desc, r.updated_at desc`,
  );
  return rows.map(toHit);
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
