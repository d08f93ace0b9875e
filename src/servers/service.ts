/** Read model: joins knowledge (the linked items a reader may see and may edit, knowledge/access.ts and item-access.ts). */
import { and, asc, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { likeEscape } from '../db/like';
import { documents, healthChecks, serverDocuments, servers } from '../db/schema';
import { AppError, conflict, notFound } from '../http/errors';
import { authorizeItem } from '../knowledge/item-access';
import { readableBy } from '../knowledge/access';
import { documentTypeOf } from '../runbooks/shared';
import { type MetricsInput, type Server, type ServerFilters, type ServerInput, sortByServerName } from './schemas';
import { queueServerEvent, queueStatusSet } from './webhook-events';

type Row = typeof servers.$inferSelect;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the text can be a row id (anything else is simply not found). */
export const isUuid = (id: string) => UUID.test(id);

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A row as the API's Server JSON (spec §3 + monitorPort). */
export function toServer(r: Row): Server {
  return {
    id: r.id,
    name: r.name,
    hostname: r.hostname,
    ipAddress: r.ipAddress,
    domain: r.domain,
    network: r.network,
    environment: r.environment,
    operatingSystem: r.operatingSystem,
    serverType: r.serverType,
    hardwareModel: r.hardwareModel,
    serverLocation: r.serverLocation,
    primaryFunction: r.primaryFunction,
    secondaryFunction: r.secondaryFunction,
    tertiaryFunction: r.tertiaryFunction,
    teamOwner: r.teamOwner,
    tags: r.tags ?? [],
    keyContacts: r.keyContacts,
    description: r.description,
    notes: r.notes,
    status: r.status,
    cpuUsage: r.cpuUsage ?? 0,
    memoryUsage: r.memoryUsage ?? 0,
    diskUsage: r.diskUsage ?? 0,
    uptime: r.uptime ?? 0,
    lastHealthCheck: iso(r.lastHealthCheck),
    metricsUpdatedAt: iso(r.metricsUpdatedAt),
    managedBy: r.managedBy,
    monitorPort: r.monitorPort,
    consecutiveFailures: r.consecutiveFailures ?? 0,
    flappingSince: iso(r.flappingSince),
    maintenanceWindowId: r.maintenanceWindowId ?? null,
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}

/** Servers in natural name order (web-2 before web-10), optionally searched (spec fields) and filtered by environment and status. */
export async function listServers(db: Db, filters: ServerFilters = {}): Promise<Server[]> {
  const where: SQL[] = [];
  if (filters.environment) where.push(eq(servers.environment, filters.environment));
  if (filters.status) where.push(eq(servers.status, filters.status));
  const q = filters.q?.trim();
  if (q) {
    const like = `%${likeEscape(q)}%`;
    const cols = [
      servers.name,
      servers.ipAddress,
      servers.hostname,
      servers.domain,
      servers.operatingSystem,
      servers.primaryFunction,
      servers.secondaryFunction,
      servers.tertiaryFunction,
      servers.teamOwner,
      servers.serverLocation,
      servers.keyContacts,
    ];
    where.push(or(...cols.map((c) => ilike(c, like)))!);
  }
  const rows = await db
    .select()
    .from(servers)
    .where(and(...where))
    // Nearly in natural order already, so the sort below is a quick pass (ms for thousands of servers).
    .orderBy(asc(servers.name));
  // The limit after the natural sort (web2 before web10), which SQL's order by name does not give.
  return sortByServerName(rows.map(toServer)).slice(0, filters.limit);
}

/** One server, or null. */
export async function getServer(db: Db, id: string): Promise<Server | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(servers).where(eq(servers.id, id));
  return row ? toServer(row) : null;
}

/** One server, or a 404. */
export async function requireServer(db: Db, id: string): Promise<Server> {
  const server = await getServer(db, id);
  if (!server) throw notFound('Server not found.');
  return server;
}

async function assertNameFree(db: Db, name: string, exceptId?: string): Promise<void> {
  const [row] = await db.select({ id: servers.id }).from(servers).where(eq(servers.name, name));
  if (row && row.id !== exceptId) throw conflict(`A server named "${name}" already exists.`, 'duplicate_name');
}

/** Unique violations (a race past assertNameFree) become 409. */
function rethrowUnique(err: unknown, name: string): never {
  const code =
    (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  if (code === '23505') throw conflict(`A server named "${name}" already exists.`, 'duplicate_name');
  throw err;
}

/** createServer in one transaction: the change and its audit event are stored together or not at all. */
export const createServer = (db: Db, input: ServerInput, actorId: string | null = null): Promise<Server> =>
  db.transaction((tx) => createServerInTx(tx, input, actorId));

/** Adds a server; names are unique (409). */
async function createServerInTx(db: Db, input: ServerInput, actorId: string | null = null): Promise<Server> {
  await assertNameFree(db, input.name);
  const row = await db
    .insert(servers)
    .values({ ...input, statusChangedAt: new Date() })
    .returning()
    .then((r) => r[0])
    .catch((e) => rethrowUnique(e, input.name));
  await recordAudit(db, {
    actorId,
    action: 'server.create',
    entityType: 'server',
    entityId: row.id,
    details: { name: row.name },
  });
  await queueServerEvent(db, 'server.created', toServer(row), actorId);
  return toServer(row);
}

/** A server's row locked for a change in this transaction (404 when there is none). */
export async function lockServer(db: Db, id: string): Promise<Server> {
  const [row] = isUuid(id) ? await db.select().from(servers).where(eq(servers.id, id)).for('update') : [];
  if (!row) throw notFound('Server not found.');
  return toServer(row);
}

/** What an update stored: the server before and after it. */
export interface ServerUpdate {
  before: Server;
  server: Server;
}

/**
 * Replaces a server's form fields; a status change stamps status_changed_at. Pass the transaction (servers/commands.ts
 * updateServer): the row, its audit event and the flags of its linked documents go together.
 */
export async function updateServerInTx(
  db: Db,
  id: string,
  input: ServerInput,
  actorId: string | null = null,
): Promise<ServerUpdate> {
  const before = await lockServer(db, id);
  await assertNameFree(db, input.name, id);
  const changed = before.status !== input.status;
  const row = await db
    .update(servers)
    // A status set by hand starts the failure count afresh (the next failed round is the first, not the Nth).
    .set({
      ...input,
      updatedAt: new Date(),
      ...(changed ? { statusChangedAt: new Date(), consecutiveFailures: 0 } : {}),
    })
    .where(eq(servers.id, id))
    .returning()
    .then((r) => r[0])
    .catch((e) => rethrowUnique(e, input.name));
  await recordAudit(db, {
    actorId,
    action: 'server.update',
    entityType: 'server',
    entityId: id,
    details: changed ? { from: before.status, to: input.status } : {},
  });
  const server = toServer(row);
  await queueServerEvent(db, 'server.updated', server, actorId);
  if (changed) await queueStatusSet(db, server, before.status, 'manual');
  return { before, server };
}

/**
 * Deletes a server (its links and health history go with it); answers it as it was. Pass the transaction
 * (servers/commands.ts deleteServer flags its linked documents first, while the links are still there).
 */
export async function deleteServerInTx(db: Db, id: string, actorId: string | null = null): Promise<Server> {
  const server = await lockServer(db, id);
  await db.delete(servers).where(eq(servers.id, id));
  await recordAudit(db, {
    actorId,
    action: 'server.delete',
    entityType: 'server',
    entityId: id,
    details: { name: server.name },
  });
  await queueServerEvent(db, 'server.deleted', server, actorId);
  return server;
}

/**
 * Stores pushed metrics (spec §7); status is optional for agents. A pushed status is compared with the row locked in
 * the push's transaction, so of two pushes at once only the one that changes it records the change (audit event and
 * server.status_changed); plain metrics leave the status as it is.
 */
export async function updateMetrics(
  db: Db,
  id: string,
  m: MetricsInput,
  actorId: string | null = null,
): Promise<Server> {
  if (m.status === undefined) return storeMetrics(db, await requireServer(db, id), m, undefined, actorId);
  return db.transaction(async (tx) => {
    const before = await lockServer(tx, id);
    return storeMetrics(tx, before, m, m.status, actorId);
  });
}

async function storeMetrics(
  db: Db,
  before: Server,
  m: MetricsInput,
  status: Server['status'] | undefined,
  actorId: string | null,
): Promise<Server> {
  const id = before.id;
  const now = new Date();
  const changed = status !== undefined && status !== before.status;
  const [row] = await db
    .update(servers)
    .set({
      cpuUsage: m.cpuUsage,
      memoryUsage: m.memoryUsage,
      diskUsage: m.diskUsage,
      uptime: Math.floor(m.uptime),
      ...(status !== undefined ? { status } : {}),
      metricsUpdatedAt: now,
      updatedAt: now,
      ...(changed ? { statusChangedAt: now } : {}),
    })
    .where(eq(servers.id, id))
    .returning();
  if (!row) throw notFound('Server not found.');
  if (changed) {
    await recordAudit(db, {
      actorId,
      action: 'server.status',
      entityType: 'server',
      entityId: id,
      details: { from: before.status, to: status, via: 'metrics' },
    });
    await queueStatusSet(db, toServer(row), before.status, 'metrics', now);
  }
  return toServer(row);
}

export interface HealthCheckEntry {
  id: string;
  checkedAt: string;
  status: string;
  previousStatus: string | null;
  latencyMs: number | null;
  error: string | null;
}

/** The newest health rows of a server, newest first, as stored (each check's results included). */
export function newestHealthRows(db: Db, serverId: string, limit: number) {
  return db
    .select()
    .from(healthChecks)
    .where(eq(healthChecks.serverId, serverId))
    .orderBy(desc(healthChecks.checkedAt))
    .limit(limit);
}

export const toHealthCheckEntry = (r: Omit<typeof healthChecks.$inferSelect, 'unannounced'>): HealthCheckEntry => ({
  id: r.id,
  checkedAt: iso(r.checkedAt)!,
  status: r.status,
  previousStatus: r.previousStatus,
  latencyMs: r.latencyMs,
  error: r.error,
});

/** The newest health checks of a server (default 50), newest first. */
export async function listHealthChecks(db: Db, serverId: string, limit = 50): Promise<HealthCheckEntry[]> {
  return (await newestHealthRows(db, serverId, limit)).map(toHealthCheckEntry);
}

export interface LinkedDocument {
  serverId: string;
  documentId: string;
  documentType: string;
  title: string;
  space: string;
  createdAt: string;
}

/**
 * The documents linked to a server (`serverId`: a value or the outer query's column) that `reader` may read, deleted
 * ones left out, by title: one JSON array, so the detail page reads them inside its own statement.
 */
export const linkedDocumentsJson = (serverId: SQL, reader: Actor) => sql<LinkedDocument[]>`(
  select coalesce(json_agg(json_build_object('serverId', l.server_id, 'documentId', l.document_id,
           'documentType', l.document_type, 'title', d.title, 'space', d.space, 'createdAt', l.created_at)
           order by d.title), '[]')
  from server_documents l join documents d on d.id = l.document_id
  where l.server_id = ${serverId} and d.deleted_at is null and ${readableBy(reader, 'd')})`;

/** A linked document as linkedDocumentsJson answers it, its time as ISO (JSON gives PostgreSQL's own format). */
export const toLinkedDocument = (l: LinkedDocument): LinkedDocument => ({
  ...l,
  createdAt: new Date(l.createdAt).toISOString(),
});

/** Documents linked to a server that `reader` may read (deleted documents left out). */
export async function listServerDocuments(db: Db, serverId: string, reader: Actor): Promise<LinkedDocument[]> {
  const [row] = await queryRows<{ links: LinkedDocument[] }>(
    db,
    sql`select ${linkedDocumentsJson(sql`${serverId}::uuid`, reader)} as links`,
  );
  return row.links.map(toLinkedDocument);
}

/** A link's type from its item: a knowledge item's kind ('work-instruction', …), 'document' for a document. */
export const linkTypeOf = (doc: { space: string; templateType: string | null }) =>
  documentTypeOf(doc.space === 'documents' ? 'documents' : 'knowledge', doc.templateType);

/**
 * The live document `by` may edit (a link changes what its page shows and which server changes flag it, as the
 * item's own Servers picker does): 404 when it is absent, deleted or unreadable to them, 403 when they may only read it.
 */
async function documentToLink(db: Db, documentId: string, by: Actor) {
  const [doc] = await db
    .select({
      id: documents.id,
      space: documents.space,
      templateType: documents.templateType,
      ownerId: documents.ownerId,
      visibility: documents.visibility,
    })
    .from(documents)
    .where(and(eq(documents.id, documentId), isNull(documents.deletedAt)));
  if (!doc) throw notFound('Document not found.');
  await authorizeItem(db, by, doc, 'item.write', 'Document not found.');
  return doc;
}

/**
 * Links a document `by` may edit to a server (idempotent: relinking updates the type); their links answer. Without
 * a `documentType` the link takes the item's type.
 */
export async function linkDocument(
  db: Db,
  serverId: string,
  documentId: string,
  type: string | undefined,
  by: Actor,
): Promise<LinkedDocument[]> {
  await requireServer(db, serverId);
  const doc = await documentToLink(db, documentId, by);
  const documentType = type ?? linkTypeOf(doc);
  await db
    .insert(serverDocuments)
    .values({ serverId, documentId, documentType })
    .onConflictDoUpdate({ target: [serverDocuments.serverId, serverDocuments.documentId], set: { documentType } });
  await recordAudit(db, {
    actorId: by?.id ?? null,
    action: 'server.link_document',
    entityType: 'server',
    entityId: serverId,
    details: { documentId, documentType },
  });
  return listServerDocuments(db, serverId, by);
}

const NOT_LINKED = 'That document is not linked to this server.';

/** Removes a link of a document `by` may edit; 404 when there was none (or they may not read the document). */
export async function unlinkDocument(db: Db, serverId: string, documentId: string, by: Actor): Promise<void> {
  await requireServer(db, serverId);
  await documentToLink(db, documentId, by).catch((err) => {
    throw err instanceof AppError && err.status === 404 ? notFound(NOT_LINKED) : err;
  });
  const actorId = by?.id ?? null;
  const removed = await db
    .delete(serverDocuments)
    .where(and(eq(serverDocuments.serverId, serverId), eq(serverDocuments.documentId, documentId)))
    .returning();
  if (!removed.length) throw notFound(NOT_LINKED);
  await recordAudit(db, {
    actorId,
    action: 'server.unlink_document',
    entityType: 'server',
    entityId: serverId,
    details: { documentId },
  });
}

/** Link counts per server (shown on the table's rows), of the documents `reader` may read. */
export async function documentCounts(db: Db, reader: Actor): Promise<Record<string, number>> {
  const rows = await db
    .select({ id: serverDocuments.serverId, n: count() })
    .from(serverDocuments)
    .innerJoin(documents, eq(documents.id, serverDocuments.documentId))
    .where(readableBy(reader))
    .groupBy(serverDocuments.serverId);
  return Object.fromEntries(rows.map((r) => [r.id, Number(r.n)]));
}

/** The health checks' address policy, for other features that connect out (alert webhooks). */
export { resolveTarget, targetPolicy } from './probes/targets';
export type { TargetPolicy } from './probes/types';
