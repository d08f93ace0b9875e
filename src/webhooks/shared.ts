import { type WebhookEvent, type WebhookFormat, webhookEvents, webhookFormats } from '../db/schema/values';
import { webhookFormatOf } from '../http/webhook-url';

/** Browser-safe facts of outgoing webhooks (no zod, no server code). */

export type { WebhookEvent, WebhookFormat };
export const WEBHOOK_EVENTS = webhookEvents;
export const WEBHOOK_FORMATS = webhookFormats;

/** What each event means, as the register form lists it. */
export const EVENT_LABELS: Record<WebhookEvent, string> = {
  'item.created': 'Item created',
  'item.updated': 'Item updated',
  'item.deleted': 'Item deleted',
  'item.published': 'Item published',
  'server.created': 'Server created',
  'server.updated': 'Server updated',
  'server.deleted': 'Server deleted',
  'server.status_changed': 'Server status changed',
  'check.failed': 'Check failed (server went offline)',
  'check.recovered': 'Check recovered (server came back)',
  'user.approved': 'User approved',
};

/** Most endpoints one installation keeps (each event is queued once per endpoint). */
export const MAX_ENDPOINTS = 50;

/** Most characters of a receiver's answer that are kept. */
export const ANSWER_CHARS = 500;

/** Secrets shorter than this show no hint: 4 characters of a short one would give away too much of it. */
export const SECRET_HINT_MIN = 24;

/** The end of a secret, for recognising it ("…a1b2"), when it is long enough; the secret itself is never shown again. */
export const secretHint = (secret: string) => (secret.length >= SECRET_HINT_MIN ? `…${secret.slice(-4)}` : null);

/**
 * A URL as lists, pages and titles show it: a Slack or Teams incoming-webhook URL is its own secret (whoever has it
 * may post), so only its scheme and host are shown ("https://hooks.slack.com/…"); any other URL as it is.
 */
export function shownUrl(url: string, format: WebhookFormat): string {
  if (!URL.canParse(url)) return url;
  const u = new URL(url);
  return format === 'json' && webhookFormatOf(url) === 'json' ? url : `${u.protocol}//${u.host}/…`;
}
