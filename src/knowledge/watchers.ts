import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Actor, can } from '../auth/policy';
import { displayNameById } from '../auth/service';
import type { Db } from '../db/client';
import { documentShares, documentWatchers, users } from '../db/schema';
import { notifyUsers, type NewNotification } from '../notifications/service';
import { liveShare, readableBy, type ItemAccessFields } from './access';
import { SPACES, type Space } from './shared';

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
  // "users"."id" spelled out: drizzle writes a lone column of a one-table select unqualified, which inside this
  // subquery would name the share's own id.
  const share = sql<'read' | 'write' | null>`(select s.permission from ${documentShares} s
      where s.document_id = ${item.id} and s.shared_with_user_id = "users"."id" and ${liveShare()}
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

/** The path a notification about the item opens: its read page. */
export const itemLink = (space: Space, id: string) => `${SPACES[space].path}/${id}`;

/**
 * A new version of the item was saved (update or restore): the actor watches it from now on and its other watchers
 * who may read it are told (`item_changed`). Pass the transaction of the save.
 */
export async function itemSaved(
  db: Db,
  space: Space,
  item: ItemAccessFields & { title: string; version: number },
  actorId: string | null,
  how: 'updated' | 'restored',
): Promise<number> {
  if (actorId) await watchItem(db, item.id, actorId);
  const what = how === 'updated' ? 'updated' : 'restored an earlier version of';
  return notifyWatchers(db, item, {
    kind: 'item_changed',
    actorId,
    text: `${await displayNameById(db, actorId)} ${what} "${item.title}" (version ${item.version})`,
    link: itemLink(space, item.id),
  });
}

/**
 * SQL condition on a notifications row: `user` may see it — it names no item, or an item that is not deleted and
 * that the user may read (a notification is as invisible as its item).
 */
export function notificationVisibleTo(user: Actor): SQL {
  // A scalar subquery, looked up per row by primary key: an `exists` beside the OR is planned as a hashed subplan
  // that reads every readable document on each count of the bell's badge.
  return sql`(notifications.document_id is null or coalesce((select ${readableBy(user, 'd')} from documents d
    where d.id = notifications.document_id and d.deleted_at is null), false))`;
}
