import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { notifications, userPreferences, users } from '../db/schema';
import { notificationVisibleTo } from '../knowledge/service';
import { enqueueMail, notificationsMail } from '../mail/service';

/**
 * The batched e-mail of the bell's notifications (issue 22): once a user's newest notification not yet e-mailed is
 * older than the quiet window, ONE message lists them all, so a burst of saves sends one e-mail. Users who get no
 * e-mail (inactive, Email notifications off) have theirs marked e-mailed without a message.
 */

/** How long a user's notifications must have been quiet before they are e-mailed. */
export const QUIET_WINDOW_MS = 2 * 60_000;
/** Users handled per run; the rest wait for the next minute. */
const USERS_PER_RUN = 500;

export interface BatchResult {
  /** Messages queued in the outbox. */
  messages: number;
  /** Users whose notifications were marked e-mailed (with or without a message). */
  users: number;
}

/** Users with notifications not yet e-mailed whose newest is older than `cutoff` (notifications_unmailed_idx). */
async function dueUsers(db: Db, cutoff: Date): Promise<string[]> {
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`select user_id from notifications where emailed_at is null
        group by user_id having max(created_at) <= ${cutoff.toISOString()}::timestamptz limit ${USERS_PER_RUN}`,
  );
  return rows.map((r) => r.user_id);
}

/** The user as the mail needs them: may they get e-mail, and which of the rows may they still see. */
async function recipient(db: Db, userId: string) {
  const [u] = await db
    .select({
      id: users.id,
      role: users.role,
      email: users.email,
      firstName: users.firstName,
      wantsMail: sql<boolean>`${users.accountStatus} = 'active' and coalesce(${userPreferences.emailNotifications}, true)`,
    })
    .from(users)
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(eq(users.id, userId));
  return u;
}

/** Names one batch by its notifications: a retried batch of the same rows is the same outbox message. */
const batchKey = (userId: string, ids: string[]) =>
  `notifications:${userId}:${createHash('sha256').update(ids.sort().join(',')).digest('hex').slice(0, 24)}`;

/**
 * One user's batch, in one transaction: claims their pending rows (FOR UPDATE SKIP LOCKED: a second worker takes
 * none of them), queues the message, sets emailed_at. Nothing happens when the burst is still going on.
 */
async function mailUser(db: Db, appUrl: string, userId: string, cutoff: Date): Promise<'mailed' | 'marked' | 'none'> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .select({ id: notifications.id, createdAt: notifications.createdAt })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.emailedAt)))
      .orderBy(asc(notifications.createdAt))
      .for('update', { skipLocked: true });
    if (!claimed.length || claimed.some((n) => n.createdAt > cutoff)) return 'none';
    const ids = claimed.map((n) => n.id);
    const user = await recipient(tx, userId);
    const shown = user?.wantsMail
      ? await tx
          .select({ text: notifications.text, link: notifications.link })
          .from(notifications)
          .where(and(inArray(notifications.id, ids), notificationVisibleTo(user)))
          .orderBy(asc(notifications.createdAt))
      : [];
    if (shown.length) {
      const mail = notificationsMail({
        firstName: user.firstName,
        items: shown.map((n) => ({ text: n.text, url: `${appUrl}${n.link}` })),
        notificationsUrl: `${appUrl}/notifications`,
        settingsUrl: `${appUrl}/settings`,
      });
      await enqueueMail(tx, { dedupeKey: batchKey(userId, ids), to: user.email, ...mail });
    }
    await tx.update(notifications).set({ emailedAt: new Date() }).where(inArray(notifications.id, ids));
    return shown.length ? 'mailed' : 'marked';
  });
}

/** Sends the due batches: one message per user whose notifications have been quiet for QUIET_WINDOW_MS. */
export async function mailNotificationBatches(
  db: Db,
  appUrl: string,
  now = new Date(),
  quietMs = QUIET_WINDOW_MS,
): Promise<BatchResult> {
  const cutoff = new Date(now.getTime() - quietMs);
  const result: BatchResult = { messages: 0, users: 0 };
  for (const userId of await dueUsers(db, cutoff)) {
    const done = await mailUser(db, appUrl, userId, cutoff);
    if (done !== 'none') result.users++;
    if (done === 'mailed') result.messages++;
  }
  return result;
}
