import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { notifications } from '../db/schema';
import type { NotificationKind } from '../db/schema/values';

/**
 * The bell's in-app notifications (issue 22). Features write them in the transaction of their cause
 * (notifyUsers); the batched e-mail job reads those not yet e-mailed, so a burst of causes sends one message.
 */

export interface NewNotification {
  /** Who is told; the actor is never told of their own action. Callers pass only users who may read the item. */
  userIds: readonly string[];
  kind: NotificationKind;
  actorId: string | null;
  documentId?: string | null;
  commentId?: string | null;
  /** One line in words ("Ada Ops mentioned you on Patch Windows servers"). */
  text: string;
  /** The in-app path it opens (/knowledge-base/{id}#comment-{id}). */
  link: string;
}

/** Writes one notification per user (not the actor); pass the transaction of the cause. Returns how many. */
export async function notifyUsers(db: Db, n: NewNotification): Promise<number> {
  const userIds = [...new Set(n.userIds)].filter((id) => id !== n.actorId);
  if (!userIds.length) return 0;
  await db.insert(notifications).values(
    userIds.map((userId) => ({
      userId,
      kind: n.kind,
      actorId: n.actorId,
      documentId: n.documentId ?? null,
      commentId: n.commentId ?? null,
      text: n.text,
      link: n.link,
    })),
  );
  return userIds.length;
}

export interface InboxNotification {
  id: string;
  kind: NotificationKind;
  text: string;
  link: string;
  documentId: string | null;
  commentId: string | null;
  createdAt: string;
  readAt: string | null;
}

/**
 * A user's notifications, newest first. `visible` is the condition the user may see a row under (the knowledge
 * feature's notificationVisibleTo: a notification about an item they can no longer read is left out).
 */
export async function listNotifications(
  db: Db,
  userId: string,
  visible?: SQL,
  limit = 50,
): Promise<InboxNotification[]> {
  const rows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      text: notifications.text,
      link: notifications.link,
      documentId: notifications.documentId,
      commentId: notifications.commentId,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), visible))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), readAt: r.readAt?.toISOString() ?? null }));
}

/** The badge counts up to this many ("99+"): a user who never reads them costs no more than that. */
export const UNREAD_CAP = 100;

/**
 * How many of a user's notifications are unread (the bell's badge), at most UNREAD_CAP; `visible` as for
 * listNotifications. Reads the partial index notifications_unread_idx.
 */
export async function unreadCount(db: Db, userId: string, visible?: SQL): Promise<number> {
  const unread = db
    .select({ one: sql`1` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), visible))
    .limit(UNREAD_CAP)
    .as('unread');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(unread);
  return Number(row?.n ?? 0);
}

/** Marks one of the user's notifications read and answers the path it opens (null: not theirs or none). */
export async function openNotification(db: Db, userId: string, id: string): Promise<string | null> {
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ link: notifications.link });
  return row?.link ?? null;
}

/** Marks the user's notifications read: the given ids (others' ids are ignored), or all of them. */
export async function markRead(db: Db, userId: string, ids?: readonly string[]): Promise<void> {
  if (ids && !ids.length) return;
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ids ? inArray(notifications.id, [...ids]) : undefined,
      ),
    );
}
