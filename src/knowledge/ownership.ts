import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { likeEscape } from '../db/like';
import { documents, users } from '../db/schema';
import { badRequest } from '../http/errors';
import { auditItem as audit, type SharedItem } from './shares';
import type { ItemVisibility, ShareableUser } from './shared';

/** Who owns an item and who may see it: the owner's and admins' changes, each audit-logged. */

/** Sets who may read the item: everyone, or only its owner, admins and the people it is shared with. */
export async function changeVisibility(
  db: Db,
  item: SharedItem & { visibility: ItemVisibility },
  visibility: ItemVisibility,
  actorId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(documents).set({ visibility }).where(eq(documents.id, item.id));
    await audit(tx, item, actorId, 'visibility', { from: item.visibility, to: visibility });
  });
}

/** Hands the item to another active user (they then change its visibility and shares). */
export async function transferOwner(
  db: Db,
  item: SharedItem & { ownerId: string | null },
  ownerId: string,
  actorId: string,
): Promise<void> {
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, ownerId), eq(users.accountStatus, 'active')));
  if (!owner) throw badRequest('The new owner must be an active user.');
  await db.transaction(async (tx) => {
    await tx.update(documents).set({ ownerId }).where(eq(documents.id, item.id));
    await audit(tx, item, actorId, 'owner', { from: item.ownerId, to: ownerId });
  });
}

/** Active users whose name or e-mail holds `q` (the Share dialog's person picker), at most 20. */
export async function findActiveUsers(db: Db, q: string): Promise<ShareableUser[]> {
  const pattern = `%${likeEscape(q.trim())}%`;
  const name = sql<string>`concat_ws(' ', ${users.firstName}, ${users.lastName})`;
  const rows = await db
    .select({ id: users.id, name, email: users.email })
    .from(users)
    .where(and(eq(users.accountStatus, 'active'), or(ilike(users.email, pattern), ilike(name, pattern))))
    .orderBy(asc(users.email))
    .limit(20);
  return rows.map((r) => ({ id: r.id, name: r.name.trim() || r.email, email: r.email }));
}
