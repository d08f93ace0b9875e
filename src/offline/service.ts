import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { offlineKeeps } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { readableBy } from '../knowledge/service';
import type { Space } from '../knowledge/shared';

export { offlineStateOf, packOf, teamNamesOf, PACK_LIMIT, type PackItem } from './pack';

/**
 * How many items one user may choose to keep (their team's runbooks come on top, up to PACK_LIMIT in all). Only live
 * items they may read count: a kept item deleted or closed to them takes no room (its row stays, and counts again if
 * it comes back).
 */
export const KEEP_LIMIT = 200;

const MISSING = 'That item does not exist or was deleted.';

/** The live item `user` may read, or null (absent, deleted, or closed to them: they must not learn which). */
async function readableItem(db: Db, user: NonNullable<Actor>, itemId: string, space?: Space) {
  const inSpace = space ? sql`d.space = ${space}` : sql`true`;
  const [row] = await queryRows<{ id: string; space: Space; title: string }>(
    db,
    sql`select d.id, d.space, d.title from documents d
        where d.id = ${itemId} and ${inSpace} and d.deleted_at is null and ${readableBy(user, 'd')}`,
  );
  return row ?? null;
}

/**
 * "Keep offline": the user keeps the item (idempotent). 404 when they may not read it, 409 past KEEP_LIMIT.
 * Returns the item and whether this call added it. `space`: only an item of that space (a page's form names one).
 */
export async function keepItem(db: Db, user: NonNullable<Actor>, itemId: string, space?: Space) {
  const item = await readableItem(db, user, itemId, space);
  if (!item) throw notFound(MISSING);
  return db.transaction(async (tx) => {
    // One user's keeps are counted and added in turn (two tabs at once cannot both pass the limit).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('offline_keeps'), hashtext(${user.id}))`);
    const [{ n }] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from offline_keeps k join documents d on d.id = k.item_id
          where k.user_id = ${user.id} and d.deleted_at is null and ${readableBy(user, 'd')}`,
    );
    const added = await tx
      .insert(offlineKeeps)
      .values({ userId: user.id, itemId: item.id })
      .onConflictDoNothing()
      .returning({ itemId: offlineKeeps.itemId });
    if (added.length && n >= KEEP_LIMIT)
      throw conflict(`You keep ${KEEP_LIMIT} items offline already: remove one first.`, 'offline_limit');
    return { item, added: added.length > 0 };
  });
}

/** The user no longer keeps the item (idempotent; the item need not exist any more). */
export async function unkeepItem(db: Db, userId: string, itemId: string): Promise<boolean> {
  const removed = await db
    .delete(offlineKeeps)
    .where(and(eq(offlineKeeps.userId, userId), eq(offlineKeeps.itemId, itemId)))
    .returning({ itemId: offlineKeeps.itemId });
  return removed.length > 0;
}
