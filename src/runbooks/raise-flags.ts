/** Read model: joins knowledge (linked items' owners and the watchers who may read them, knowledge/watchers.ts). */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import { displayNameById } from '../auth/service';
import type { Db } from '../db/client';
import { documentReviewFlags, documents, documentWatchers, serverDocuments, serverIdentityFields } from '../db/schema';
import { SPACES } from '../knowledge/shared';
import { itemLink, whoMayRead } from '../knowledge/watchers';
import { notifyUsers } from '../notifications/service';
import type { Server } from '../servers/schemas';
import { describeServerChange } from './flag-texts';
import type { ReviewFlagField } from './shared';

/**
 * A linked server changed its identity (name, address, OS, environment …) or was deleted: every live document linked
 * to it gets one review flag per changed field, an `item.flagged` audit event, and its owner and watchers who may
 * read it hear of it once (`server_changed`). All in the transaction of the server's change.
 */

/** Who changed the server, as flags show it: a person (id and name) or an agent (API token, no user). */
export interface ChangedBy {
  /** The acting user (told of nothing, and the audit's actor), also when they act through an API token. */
  actorId: string | null;
  /** The person the flag names; null for an agent. */
  byId: string | null;
  byName: string;
}

/** One changed field, old → new (`deleted`: the server's name → null). */
export interface FieldChange {
  field: ReviewFlagField;
  from: string | null;
  to: string | null;
}

/** The server as a flag names it. */
type FlaggedServer = Pick<Server, 'id' | 'name' | 'teamOwner'>;

/** Who a change is by: the signed-in user's name, or "an agent" for a token or no user. */
export async function changedBy(db: Db, actorId: string | null, viaToken: boolean): Promise<ChangedBy> {
  if (!actorId || viaToken) return { actorId, byId: null, byName: 'an agent' };
  // A flag keeps at most 200 characters of the name (two 100-character names and a space are 201).
  return { actorId, byId: actorId, byName: (await displayNameById(db, actorId)).slice(0, 200) };
}

/** The identity fields that differ between two states of a server (status and metrics are never among them). */
export function identityChanges(before: Server, after: Server): FieldChange[] {
  return serverIdentityFields
    .filter((field) => (before[field] ?? null) !== (after[field] ?? null))
    .map((field) => ({ field, from: before[field] ?? null, to: after[field] ?? null }));
}

/** The live documents linked to a server, with what notifying and auditing them needs. */
function linkedDocuments(db: Db, serverId: string) {
  return db
    .select({
      id: documents.id,
      title: documents.title,
      space: documents.space,
      ownerId: documents.ownerId,
      visibility: documents.visibility,
    })
    .from(serverDocuments)
    .innerJoin(documents, eq(documents.id, serverDocuments.documentId))
    .where(and(eq(serverDocuments.serverId, serverId), isNull(documents.deletedAt)));
}

type LinkedDocument = Awaited<ReturnType<typeof linkedDocuments>>[number];

/** The watchers of each document, by document id. */
async function watchersOf(db: Db, documentIds: string[]): Promise<Map<string, string[]>> {
  const byDocument = new Map<string, string[]>(documentIds.map((id) => [id, []]));
  const rows = await db
    .select({ documentId: documentWatchers.documentId, userId: documentWatchers.userId })
    .from(documentWatchers)
    .where(inArray(documentWatchers.documentId, documentIds));
  for (const r of rows) byDocument.get(r.documentId)?.push(r.userId);
  return byDocument;
}

/** One row per document and changed field, in one statement. */
async function insertFlags(
  db: Db,
  docs: LinkedDocument[],
  server: FlaggedServer,
  changes: FieldChange[],
  by: ChangedBy,
) {
  await db.insert(documentReviewFlags).values(
    docs.flatMap((doc) =>
      changes.map((c) => ({
        documentId: doc.id,
        serverId: server.id,
        serverName: server.name,
        serverTeam: server.teamOwner,
        field: c.field,
        fromValue: c.from,
        toValue: c.to,
        byId: by.byId,
        byName: by.byName,
      })),
    ),
  );
}

/** The audit event and the notification of one flagged document. */
async function announceFlag(
  db: Db,
  doc: LinkedDocument,
  watchers: string[],
  change: { server: FlaggedServer; changes: FieldChange[]; by: ChangedBy; text: string },
): Promise<void> {
  const { server, changes, by } = change;
  await recordAudit(db, {
    actorId: by.actorId,
    action: 'item.flagged',
    entityType: SPACES[doc.space].audit.entityType,
    entityId: doc.id,
    details: { title: doc.title, serverId: server.id, serverName: server.name, fields: changes.map((c) => c.field) },
  });
  const told = doc.ownerId ? [doc.ownerId, ...watchers] : watchers;
  await notifyUsers(db, {
    kind: 'server_changed',
    actorId: by.actorId,
    documentId: doc.id,
    userIds: await whoMayRead(db, doc, told),
    text: `${change.text}: "${doc.title}" may need review`,
    link: itemLink(doc.space, doc.id),
  });
}

/** Flags every live document linked to `server` with `changes`; answers how many documents. Pass the transaction. */
export async function flagLinkedDocuments(
  db: Db,
  server: FlaggedServer & { before: string },
  changes: FieldChange[],
  by: ChangedBy,
): Promise<number> {
  if (!changes.length) return 0;
  const docs = await linkedDocuments(db, server.id);
  if (!docs.length) return 0;
  const watchers = await watchersOf(
    db,
    docs.map((d) => d.id),
  );
  await insertFlags(db, docs, server, changes, by);
  const text = describeServerChange(by.byName, server.before, changes);
  for (const doc of docs) await announceFlag(db, doc, watchers.get(doc.id) ?? [], { server, changes, by, text });
  return docs.length;
}

/** A server's identity changed (PUT /api/servers/{id}): flags its linked documents. Pass the transaction. */
export const flagServerChange = (db: Db, before: Server, after: Server, by: ChangedBy): Promise<number> =>
  flagLinkedDocuments(
    db,
    { id: after.id, name: after.name, teamOwner: after.teamOwner, before: before.name },
    identityChanges(before, after),
    by,
  );

/** A server is about to be deleted: flags its linked documents while the links are still there. Pass the transaction. */
export const flagServerDeletion = (db: Db, server: Server, by: ChangedBy): Promise<number> =>
  flagLinkedDocuments(
    db,
    { id: server.id, name: server.name, teamOwner: server.teamOwner, before: server.name },
    [{ field: 'deleted', from: server.name, to: null }],
    by,
  );
