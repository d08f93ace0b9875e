import { and, eq, inArray, sql } from 'drizzle-orm';
import { can } from '../auth/policy';
import type { Db } from '../db/client';
import { documentShares, documentWatchers, users } from '../db/schema';
import { notifyUsers, type NewNotification } from '../notifications/service';
import { liveShare, type ItemAccessFields } from './access';

/**
 * Who watches an item and who of a set of users may read it (issue 22): changes, new versions, comments and
 * review decisions notify the watchers who may still read the item, never anyone else.
 */

/** Starts watching (idempotent): authors and commenters are made watchers by the code that records their act. */
export async function watchItem(db: Db, documentId: string, userId: string): Promise<void> {
  await db.insert(documentWatchers).values({ documentId, userId }).onConflictDoNothing();
}

export async function unwatchItem(db: Db, documentId: string, userId: string): Promise<void> {
  await db
    .delete(documentWatchers)
    .where(and(eq(documentWatchers.documentId, documentId), eq(documentWatchers.userId, userId)));
}

export async function isWatching(db: Db, documentId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: documentWatchers.userId })
    .from(documentWatchers)
    .where(and(eq(documentWatchers.documentId, documentId), eq(documentWatchers.userId, userId)))
    .limit(1);
  return !!row;
}

/** Of `userIds`, the active accounts that may read the item (the policy decides, with each one's own share). */
export async function whoMayRead(db: Db, item: ItemAccessFields, userIds: readonly string[]): Promise<string[]> {
  if (!userIds.length) return [];
  // users.id spelled out: drizzle writes a single table's column unqualified, and "id" would be the share's own.
  const share = sql<'read' | 'write' | null>`(select s.permission from ${documentShares} s
      where s.document_id = ${item.id} and s.shared_with_user_id = users.id and ${liveShare()}
      order by s.permission = 'write' desc limit 1)`;
  const rows = await db
    .select({ id: users.id, role: users.role, share })
    .from(users)
    .where(and(inArray(users.id, [...new Set(userIds)]), eq(users.accountStatus, 'active')));
  return rows
    .filter((u) => can(u, 'item.read', { ownerId: item.ownerId, visibility: item.visibility, share: u.share }))
    .map((u) => u.id);
}

/** The item's watchers who may read it. */
export async function readingWatchers(db: Db, item: ItemAccessFields): Promise<string[]> {
  const rows = await db
    .select({ userId: documentWatchers.userId })
    .from(documentWatchers)
    .where(eq(documentWatchers.documentId, item.id));
  return whoMayRead(
    db,
    item,
    rows.map((r) => r.userId),
  );
}

/** Notifies the item's watchers who may read it (not the actor); pass the transaction of the cause. */
export async function notifyWatchers(
  db: Db,
  item: ItemAccessFields,
  n: Omit<NewNotification, 'userIds' | 'documentId'>,
): Promise<number> {
  return notifyUsers(db, { ...n, documentId: item.id, userIds: await readingWatchers(db, item) });
}
