import { and, eq, inArray } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { serverDocuments, servers } from '../db/schema';
import { badRequest } from '../http/errors';
import { SPACES, type Space } from '../knowledge/shared/spaces';
import { documentTypeOf } from './shared';

/** The item whose servers are set: its id and type (the links' documentType). */
export interface LinkedItem {
  id: string;
  templateType: string | null;
}

/** What a change of the set did, by server name. */
export interface ServerLinkChange {
  added: string[];
  removed: string[];
}

/** Names of servers by id; 400 naming the first id that is no server. */
async function serverNames(tx: Db, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await tx.select({ id: servers.id, name: servers.name }).from(servers).where(inArray(servers.id, ids));
  const names = new Map(rows.map((r) => [r.id, r.name]));
  const unknown = ids.find((id) => !names.has(id));
  if (unknown) throw badRequest(`There is no server with the id ${unknown}.`);
  return names;
}

/**
 * Makes `serverIds` the item's whole set of linked servers (an empty list unlinks all), with an
 * `item.servers_linked` audit event naming the servers added and removed. Call it in the save's transaction.
 */
export async function setItemServers(
  tx: Db,
  space: Space,
  item: LinkedItem,
  serverIds: string[],
  actorId: string | null,
): Promise<ServerLinkChange> {
  const wanted = [...new Set(serverIds)];
  const names = await serverNames(tx, wanted);
  const current = await tx
    .select({ id: serverDocuments.serverId, name: servers.name })
    .from(serverDocuments)
    .innerJoin(servers, eq(servers.id, serverDocuments.serverId))
    .where(eq(serverDocuments.documentId, item.id));
  const removed = current.filter((r) => !names.has(r.id));
  const had = new Set(current.map((r) => r.id));
  const added = wanted.filter((id) => !had.has(id));
  if (removed.length) {
    const ids = removed.map((r) => r.id);
    await tx
      .delete(serverDocuments)
      .where(and(eq(serverDocuments.documentId, item.id), inArray(serverDocuments.serverId, ids)));
  }
  const documentType = documentTypeOf(space, item.templateType);
  if (wanted.length) {
    // Kept links take the item's type too: an edit may have changed it.
    await tx
      .insert(serverDocuments)
      .values(wanted.map((serverId) => ({ serverId, documentId: item.id, documentType })))
      .onConflictDoUpdate({ target: [serverDocuments.serverId, serverDocuments.documentId], set: { documentType } });
  }
  const change = { added: added.map((id) => names.get(id)!).sort(), removed: removed.map((r) => r.name).sort() };
  if (change.added.length || change.removed.length) {
    await recordAudit(tx, {
      actorId,
      action: 'item.servers_linked',
      entityType: SPACES[space].audit.entityType,
      entityId: item.id,
      details: change,
    });
  }
  return change;
}

/** Gives the item's links its current type (an edit changed its templateType). Call it in the save's transaction. */
export async function retypeItemLinks(tx: Db, space: Space, item: LinkedItem): Promise<void> {
  await tx
    .update(serverDocuments)
    .set({ documentType: documentTypeOf(space, item.templateType) })
    .where(eq(serverDocuments.documentId, item.id));
}

/** setItemServers in a transaction of its own (PUT /api/{base}/{id}/servers). */
export const linkItemServers = (db: Db, space: Space, item: LinkedItem, serverIds: string[], actorId: string | null) =>
  db.transaction((tx) => setItemServers(tx, space, item, serverIds, actorId));
