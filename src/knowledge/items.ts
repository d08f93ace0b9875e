import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documents, documentVersions, users } from '../db/schema';
import { notFound } from '../http/errors';
import { authorColumns, itemColumns, snapshotOf, toItem, type ItemRow } from './rows';
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

/** A live item with its author, built once per database: every item page and preview asks it. */
function buildLiveItemQuery(db: Db) {
  return db
    .select({ ...itemColumns, ...authorColumns })
    .from(documents)
    .leftJoin(users, eq(users.id, documents.authorId))
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

/** One item with its author, or null (deleted items only with includeDeleted). */
export async function getItem(
  db: Db,
  space: Space,
  id: string,
  opts: { includeDeleted?: boolean } = {},
): Promise<Item | null> {
  if (!isUuid(id)) return null;
  if (!opts.includeDeleted) {
    let query = liveItemQueries.get(db);
    if (!query) {
      query = buildLiveItemQuery(db);
      liveItemQueries.set(db, query);
    }
    const [live] = await query.execute({ id, space });
    return live ? toItem(live) : null;
  }
  const [row] = await db
    .select({ ...itemColumns, ...authorColumns })
    .from(documents)
    .leftJoin(users, eq(users.id, documents.authorId))
    .where(
      and(
        eq(documents.id, id),
        eq(documents.space, space),
        opts.includeDeleted ? undefined : isNull(documents.deletedAt),
      ),
    );
  return row ? toItem(row) : null;
}

/** True for a canonical uuid (anything else is a 404, never a database error). */
export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
