import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documents, documentVersions, users } from '../db/schema';
import type { Actor } from '../auth/policy';
import { notFound } from '../http/errors';
import { authorizeItem, mayItem } from './item-access';
import { authorColumns, itemColumns, ownerColumns, owners, snapshotOf, toItem, type ItemRow } from './rows';
import type { Item, Space } from './schemas';

/** One item's reads and writes that the service, versions and deleted items all build on. */

/** Writes one document_versions row for the row as it now is. */
export async function writeVersion(db: Db, row: ItemRow, actorId: string | null, changeLog: string): Promise<void> {
  await db.insert(documentVersions).values({
    documentId: row.id,
    version: row.version,
    title: row.title,
    content: row.content,
    snapshot: snapshotOf(row),
    authorId: actorId,
    changeLog,
  });
}

/** The row of a live (or, with includeDeleted, any) item, locked for the transaction; 404 when absent. */
export async function lockRow(
  db: Db,
  space: Space,
  id: string,
  includeDeleted = false,
): Promise<ItemRow & { deletedAt: Date | null }> {
  if (!isUuid(id)) throw notFound('Item not found.');
  const [row] = await db
    .select({ ...itemColumns, deletedAt: documents.deletedAt })
    .from(documents)
    .where(
      and(eq(documents.id, id), eq(documents.space, space), includeDeleted ? undefined : isNull(documents.deletedAt)),
    )
    .for('update');
  if (!row) throw notFound('Item not found.');
  return row;
}

/** A live item with its author and owner, built once per database: every item page and preview asks it. */
function buildLiveItemQuery(db: Db) {
  return db
    .select({ ...itemColumns, ...authorColumns, ...ownerColumns })
    .from(documents)
    .leftJoin(users, eq(users.id, documents.authorId))
    .leftJoin(owners, eq(owners.id, documents.ownerId))
    .where(
      and(
        eq(documents.id, sql.placeholder('id')),
        eq(documents.space, sql.placeholder('space')),
        isNull(documents.deletedAt),
      ),
    )
    .prepare('live_item');
}
const liveItemQueries = new WeakMap<Db, ReturnType<typeof buildLiveItemQuery>>();

export interface GetItemOptions {
  includeDeleted?: boolean;
  /**
   * Who reads it: when given (even as null or undefined), an item this reader may not read is null too, exactly
   * like a missing one (404, never 403). Left out only by code that acts for nobody in particular.
   */
  viewer?: Actor;
}

/** One item with its author and owner, or null (deleted items only with includeDeleted; see GetItemOptions.viewer). */
export async function getItem(db: Db, space: Space, id: string, opts: GetItemOptions = {}): Promise<Item | null> {
  const item = await findItem(db, space, id, opts.includeDeleted);
  if (!item || !('viewer' in opts)) return item;
  return (await mayItem(db, opts.viewer, item, 'item.read')) ? item : null;
}

async function findItem(db: Db, space: Space, id: string, includeDeleted?: boolean): Promise<Item | null> {
  if (!isUuid(id)) return null;
  if (!includeDeleted) {
    let query = liveItemQueries.get(db);
    if (!query) {
      query = buildLiveItemQuery(db);
      liveItemQueries.set(db, query);
    }
    const [live] = await query.execute({ id, space });
    return live ? toItem(live) : null;
  }
  const [row] = await db
    .select({ ...itemColumns, ...authorColumns, ...ownerColumns })
    .from(documents)
    .leftJoin(users, eq(users.id, documents.authorId))
    .leftJoin(owners, eq(owners.id, documents.ownerId))
    .where(and(eq(documents.id, id), eq(documents.space, space)));
  return row ? toItem(row) : null;
}

/**
 * The live item `user` may do `action` to: 404 when it is absent or they may not read it, 403 when they may read it
 * but not do this.
 */
export async function itemFor(
  db: Db,
  user: Actor,
  space: Space,
  id: string,
  action: 'item.read' | 'item.write' | 'item.share' | 'item.comment' | 'item.review',
  missing = 'Item not found.',
): Promise<Item> {
  const item = await findItem(db, space, id);
  if (!item) throw notFound(missing);
  await authorizeItem(db, user, item, action, missing);
  return item;
}

/** True for a canonical uuid (anything else is a 404, never a database error). */
export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
