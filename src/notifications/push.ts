import webpush from 'web-push';
import type { Config } from '../config';
import type { Logger } from '../http/logger';

export type VapidConfig = NonNullable<Config['push']>;

/** A stored browser subscription: where to send and the keys to encrypt for. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What the service worker (static/sw.js) shows: a title, a body, and the page a click opens. */
export interface PushMessage {
  title: string;
  body: string;
  url: string;
  /** Same tag → the newer notification replaces the older one. */
  tag?: string;
}

/** A push service answering 404 or 410 says the subscription no longer exists. */
const isGone = (err: unknown) =>
  err instanceof webpush.WebPushError && (err.statusCode === 404 || err.statusCode === 410);

/** Connection errors raised before any request byte left (nothing can have reached the push service). */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** A failure known not to have delivered: no connection, or the service answered that it did not take it. */
const notDelivered = (err: unknown) =>
  err instanceof webpush.WebPushError
    ? err.statusCode === 408 || err.statusCode === 429 || err.statusCode >= 500
    : NOT_CONNECTED.has((err as NodeJS.ErrnoException)?.code ?? '');

/**
 * Sends the message to each subscription as an encrypted Web Push request (aes128gcm, VAPID-signed).
 * Returns how many push services accepted it, the endpoints that are gone, and how many failures are known not to
 * have delivered it (safe to retry: a timeout or a reset after sending may have); other failures are logged.
 */
export async function sendPushes(
  vapid: VapidConfig,
  targets: PushTarget[],
  message: PushMessage,
  logger: Logger,
): Promise<{ sent: number; gone: string[]; notDelivered: number }> {
  const result = { sent: 0, gone: [] as string[], notDelivered: 0 };
  const payload = JSON.stringify(message);
  await Promise.all(
    targets.map(async (t) => {
      try {
        await webpush.sendNotification({ endpoint: t.endpoint, keys: { p256dh: t.p256dh, auth: t.auth } }, payload, {
          vapidDetails: vapid,
          contentEncoding: 'aes128gcm',
          TTL: 3600,
          urgency: 'high',
          timeout: 10_000,
        });
        result.sent++;
      } catch (err) {
        if (isGone(err)) result.gone.push(t.endpoint);
        else if (notDelivered(err)) result.notDelivered++;
        if (!isGone(err)) logger.warn({ err, endpoint: new URL(t.endpoint).origin }, 'web push failed');
      }
    }),
  );
  return result;
}
