/**
 * Value lists stored in columns, written once: the tables type their columns with them and the features'
 * browser-safe shared modules re-export them. Pure constants, no imports, so islands may bundle them.
 */

/** Knowledge items and documents share one table; `documents.space` tells them apart. */
export const spaces = ['documents', 'knowledge'] as const;

/** Spec §3 templateType values (knowledge items also use general and build_document). */
export const templateTypes = [
  'server_setup',
  'network_config',
  'security_audit',
  'maintenance',
  'troubleshooting',
  'work_instruction',
  'how_to_guide',
  'general',
  'build_document',
] as const;

/** Account roles (issue 21): admin everything; editor writes content; viewer reads; auditor reads plus the audit trail. */
export const roles = ['admin', 'editor', 'viewer', 'auditor'] as const;
export type Role = (typeof roles)[number];

/** Who may read a knowledge item or document: everyone signed in, or only its owner, admins and its shares. */
export const visibilities = ['everyone', 'restricted'] as const;
export type Visibility = (typeof visibilities)[number];

/** Kinds of API token: a metrics agent's (scoped to servers) or a person's (acting as its owner). */
export const tokenKinds = ['metrics', 'personal'] as const;

/** What a personal API token may do: read only, or read and write (never more than its owner). */
export const tokenScopes = ['read', 'read-write'] as const;

/** Where an item is in the review workflow (issue 22); the spec's Published switch is `state = 'published'`. */
export const itemStates = ['draft', 'in_review', 'published'] as const;
export type ItemState = (typeof itemStates)[number];

/** A reviewer's answer to a review request. */
export const reviewDecisions = ['approve', 'changes'] as const;
export type ReviewDecision = (typeof reviewDecisions)[number];

/** What an in-app notification is about (the bell's panel). */
export const notificationKinds = [
  'mention',
  'comment',
  'item_changed',
  'review_requested',
  'review_decided',
  'published',
  'review_due',
  'server_changed',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** What a health check probes (issue 24): a TCP connect, an HTTP(S) request, a certificate's expiry, a name lookup. */
export const checkKinds = ['tcp', 'http', 'https', 'tls', 'dns'] as const;
export type CheckKind = (typeof checkKinds)[number];

/** One check's result: ok, warning (e.g. a certificate expiring soon) or failing. */
export const checkStatuses = ['ok', 'warning', 'failing'] as const;
export type CheckStatus = (typeof checkStatuses)[number];

/** How an alert rule reaches people: e-mail, Web Push, or a webhook (generic JSON, Slack or Teams body). */
export const alertChannels = ['email', 'push', 'webhook'] as const;
export type AlertChannel = (typeof alertChannels)[number];
export const webhookFormats = ['json', 'slack', 'teams'] as const;
export type WebhookFormat = (typeof webhookFormats)[number];

/** Why an alert delivery is sent: the server went down, is still down (repeat), or came back. */
export const alertDeliveryKinds = ['opened', 'repeat', 'recovered'] as const;
export const alertDeliveryStatuses = ['pending', 'sending', 'sent', 'failed'] as const;

/** Data in and out (issue 25): import job states (a preview waits for its page's Confirm), webhook events and delivery states. */
export const importJobStatuses = ['preview', 'queued', 'running', 'done', 'failed'] as const;
export type ImportJobStatus = (typeof importJobStatuses)[number];
export const webhookEvents = [
  'item.created',
  'item.updated',
  'item.deleted',
  'item.published',
  'server.created',
  'server.updated',
  'server.deleted',
  'server.status_changed',
  'check.failed',
  'check.recovered',
  'user.approved',
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];
/**
 * 'dropped' is no delivery: one row per endpoint counting the events not queued while its queue was full
 * (src/webhooks/queue.ts).
 */
export const webhookDeliveryStatuses = ['pending', 'sending', 'sent', 'failed', 'dropped'] as const;
