import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { DEFAULT_TIMEZONE, pushSubscriptions, userPreferences, users } from '../db/schema';
import type { Logger } from '../http/logger';
import { enqueueMail, securityAlertMail, type SecurityEvent, serverStatusMail, statusHeadline } from '../mail/service';
import type { StatusChange } from '../servers/schemas';
import { formatDateTime } from '../ui/shared';
import { sendPushes, type PushMessage, type PushTarget } from './push';
import type { PushSubscriptionInput } from './schemas';

export interface NotifyDeps {
  db: Db;
  config: Pick<Config, 'appUrl' | 'push'>;
  logger: Logger;
}

const tz = sql<string>`coalesce(${userPreferences.timezone}, ${DEFAULT_TIMEZONE})`;

/** Active users with Email notifications on (the default for a user who never saved settings). */
function statusMailRecipients(db: Db) {
  return db
    .select({ id: users.id, email: users.email, firstName: users.firstName, timezone: tz })
    .from(users)
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(and(eq(users.accountStatus, 'active'), sql`coalesce(${userPreferences.emailNotifications}, true)`));
}

/** Browser subscriptions of active users with Push notifications on (off by default). */
function statusPushTargets(db: Db): Promise<PushTarget[]> {
  return db
    .select({ endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth })
    .from(pushSubscriptions)
    .innerJoin(users, eq(users.id, pushSubscriptions.userId))
    .innerJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(and(eq(users.accountStatus, 'active'), eq(userPreferences.pushNotifications, true)));
}

/** Names a round by the checks that saw its changes: a retried round with the same changes gets the same key. */
const roundKey = (changes: StatusChange[]) =>
  createHash('sha256')
    .update(
      changes
        .map((c) => c.checkId)
        .sort()
        .join(','),
    )
    .digest('hex')
    .slice(0, 24);

const serverUrl = (appUrl: string, c: StatusChange) => `${appUrl}/infrastructure/${c.serverId}`;

/**
 * One e-mail per opted-in active user listing the changes, through the outbox (deduplicated per user and set of
 * changes). Pass the transaction that marks the changes announced, so they are e-mailed exactly once.
 */
export async function queueServerStatusMails(db: Db, appUrl: string, changes: StatusChange[]): Promise<number> {
  if (!changes.length) return 0;
  const round = roundKey(changes);
  const recipients = await statusMailRecipients(db);
  for (const r of recipients) {
    const lines = changes.map((c) => ({ ...c, when: formatDateTime(c.at, r.timezone), url: serverUrl(appUrl, c) }));
    const mail = serverStatusMail({
      firstName: r.firstName,
      changes: lines,
      timeZone: r.timezone,
      settingsUrl: `${appUrl}/settings`,
    });
    await enqueueMail(db, { dedupeKey: `server-status:${r.id}:${round}`, to: r.email, ...mail });
  }
  return recipients.length;
}

/** The push of a round: the headline, a line per server (at most five), and the server (or the list) to open. */
function statusPush(appUrl: string, changes: StatusChange[]): PushMessage {
  const lines = changes
    .slice(0, 5)
    .map(
      (c) =>
        `${c.name} (${c.environment}): ${c.flapping === 'started' ? 'flapping' : c.to === 'offline' ? 'offline' : 'back online'}`,
    );
  if (changes.length > 5) lines.push(`and ${changes.length - 5} more`);
  const url = changes.length === 1 ? serverUrl(appUrl, changes[0]) : `${appUrl}/infrastructure`;
  return { title: `Ops Hub: ${statusHeadline(changes)}`, body: lines.join('\n'), url, tag: 'server-status' };
}

/**
 * Pushes the changes to every subscribed browser of opted-in users (nothing without VAPID keys); subscriptions
 * the push service calls gone are deleted. Call after the announcing transaction committed: a push is not retried.
 */
export async function pushServerStatus(deps: NotifyDeps, changes: StatusChange[]): Promise<number> {
  const vapid = deps.config.push;
  if (!vapid || !changes.length) return 0;
  const targets = await statusPushTargets(deps.db);
  if (!targets.length) return 0;
  const { sent, gone } = await sendPushes(vapid, targets, statusPush(deps.config.appUrl, changes), deps.logger);
  for (const endpoint of gone) await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
  return sent;
}

/**
 * Pushes one message to every browser the user subscribed, whatever their Push switch says (an alert rule naming
 * them is an explicit subscription; turning Push off forgets their browsers anyway). Gone subscriptions are deleted.
 */
export async function pushToUser(
  deps: NotifyDeps,
  userId: string,
  message: PushMessage,
): Promise<{ targets: number; sent: number; notDelivered: number }> {
  const vapid = deps.config.push;
  if (!vapid) return { targets: 0, sent: 0, notDelivered: 0 };
  const targets = await deps.db
    .select({ endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  if (!targets.length) return { targets: 0, sent: 0, notDelivered: 0 };
  const { sent, gone, notDelivered } = await sendPushes(vapid, targets, message, deps.logger);
  for (const endpoint of gone) await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
  return { targets: targets.length, sent, notDelivered };
}

/** Where a security-relevant request came from, when known. */
export interface ClientInfo {
  ip?: string | null;
  userAgent?: string | null;
}

/**
 * Queues a security alert to the user unless they switched Security alerts off (on by default).
 * Pass the transaction of the change, so the alert is sent exactly when the change is made.
 */
export async function queueSecurityAlert(
  db: Db,
  p: { appUrl: string; userId: string; event: SecurityEvent; client?: ClientInfo; at?: Date },
): Promise<boolean> {
  const [u] = await db
    .select({
      email: users.email,
      firstName: users.firstName,
      on: sql<boolean>`coalesce(${userPreferences.securityAlerts}, true)`,
      timezone: tz,
    })
    .from(users)
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(eq(users.id, p.userId))
    .limit(1);
  if (!u?.on) return false;
  const at = p.at ?? new Date();
  const ip = p.client?.ip && p.client.ip !== 'unknown' ? p.client.ip : null;
  const mail = securityAlertMail({
    firstName: u.firstName,
    email: u.email,
    event: p.event,
    when: formatDateTime(at, u.timezone),
    timeZone: u.timezone,
    ip,
    userAgent: p.client?.userAgent,
    resetUrl: `${p.appUrl}/forgot-password`,
    settingsUrl: `${p.appUrl}/settings`,
  });
  await enqueueMail(db, { dedupeKey: `security:${p.event}:${p.userId}:${at.getTime()}`, to: u.email, ...mail });
  return true;
}

/** Sets the user's Push notifications switch (user_preferences, created with the defaults if missing). */
async function setPushSwitch(db: Db, userId: string, on: boolean) {
  await db
    .insert(userPreferences)
    .values({ userId, pushNotifications: on })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { pushNotifications: on, updatedAt: new Date() } });
}

/** Stores this browser's subscription for the user (a re-subscribing browser updates its row) and turns Push on. */
export async function subscribePush(
  db: Db,
  userId: string,
  sub: PushSubscriptionInput,
  userAgent?: string,
): Promise<void> {
  const row = {
    userId,
    endpoint: sub.endpoint,
    p256dh: sub.keys.p256dh,
    auth: sub.keys.auth,
    userAgent: userAgent?.slice(0, 300) ?? null,
  };
  await db.transaction(async (tx) => {
    await tx.insert(pushSubscriptions).values(row).onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: row });
    await setPushSwitch(tx, userId, true);
  });
}

/** Turns Push off for the user and forgets every browser subscription of theirs (each browser must subscribe again). */
export async function unsubscribePush(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
    await setPushSwitch(tx, userId, false);
  });
}

export { pushScriptUrl } from './assets';
export { listNotifications, markRead, notifyUsers, openNotification, UNREAD_CAP, unreadCount } from './inbox';
export type { InboxNotification, NewNotification } from './inbox';
export type { PushMessage } from './push';
