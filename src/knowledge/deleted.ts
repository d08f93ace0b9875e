import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { authorize, type Actor } from '../auth/policy';
import { readableBy } from './access';
import type { Db } from '../db/client';
import { auditLog, documents, documentVersions, users } from '../db/schema';
import { notFound } from '../http/errors';
import type { Item, Space } from './schemas';
import { isUuid } from './items';
import { restoreVersion } from './versions';

/** A deleted item as the admins' Deleted items screen lists it. */
export interface DeletedItem {
  id: string;
  title: string;
  category: string | null;
  version: number;
  deletedAt: string;
  /** Who deleted it (from the audit log), or null when unknown. */
  deletedBy: string | null;
}

/** Items shown at most (newest deletions first). */
export const DELETED_ROWS = 200;

/** Deleted items of a space the viewer may read, most recently deleted first, with who deleted each. */
export async function listDeleted(db: Db, space: Space, viewer: Actor): Promise<DeletedItem[]> {
  const deleter = db
    .select({
      name: sql<string>`coalesce(nullif(concat_ws(' ', ${users.firstName}, ${users.lastName}), ''), ${users.email})`,
    })
    .from(auditLog)
    .innerJoin(users, eq(users.id, auditLog.actorId))
    .where(and(eq(auditLog.entityId, sql`${documents.id}::text`), sql`${auditLog.action} like '%.delete'`))
    .orderBy(desc(auditLog.createdAt))
    .limit(1);
  const rows = await db
    .select({
      id: documents.id,
      title: documents.title,
      category: documents.category,
      version: documents.version,
      deletedAt: documents.deletedAt,
      deletedBy: sql<string | null>`(${deleter})`,
    })
    .from(documents)
    .where(and(eq(documents.space, space), isNotNull(documents.deletedAt), readableBy(viewer)))
    .orderBy(desc(documents.deletedAt))
    .limit(DELETED_ROWS);
  return rows.map((r) => ({ ...r, deletedAt: r.deletedAt!.toISOString() }));
}

/** Brings a deleted item back as it was when deleted: its latest version restored as a new one (policy: knowledge.restore). */
export async function undeleteItem(db: Db, space: Space, id: string, actor: Actor): Promise<Item> {
  authorize(actor, 'knowledge.restore');
  if (!isUuid(id)) throw notFound('Item not found.');
  const [latest] = await db
    .select({ id: documentVersions.id })
    .from(documentVersions)
    .innerJoin(documents, eq(documents.id, documentVersions.documentId))
    .where(and(eq(documentVersions.documentId, id), eq(documents.space, space), isNotNull(documents.deletedAt)))
    .orderBy(desc(documentVersions.version))
    .limit(1);
  if (!latest) throw notFound('That item is not deleted, or does not exist.');
  return restoreVersion(db, space, id, latest.id, actor);
}
