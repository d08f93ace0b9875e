import { and, eq, inArray, ne, or } from 'drizzle-orm';
import { displayNameOf } from '../auth/service';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { Item } from '../knowledge/schemas';
import { whoMayRead } from '../knowledge/service';

/** Who may be asked to review an item: active editors and admins who may read it (the policy's item.review). */

export interface Reviewer {
  id: string;
  name: string;
}

/** Of `ids` (all of them, or every account when left out), the active editors and admins who may read the item. */
export async function eligibleReviewers(
  db: Db,
  item: Pick<Item, 'id' | 'ownerId' | 'visibility'>,
  ids?: readonly string[],
  exclude: string[] = [],
) {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.accountStatus, 'active'),
        or(eq(users.role, 'admin'), eq(users.role, 'editor')),
        ids ? inArray(users.id, [...ids]) : undefined,
        ...exclude.map((id) => ne(users.id, id)),
      ),
    )
    .orderBy(users.firstName, users.lastName, users.email)
    .limit(ids ? ids.length : 200);
  const readers = new Set(
    await whoMayRead(
      db,
      item,
      rows.map((r) => r.id),
    ),
  );
  return rows.filter((r) => readers.has(r.id)).map((r): Reviewer => ({ id: r.id, name: displayNameOf(r) }));
}
