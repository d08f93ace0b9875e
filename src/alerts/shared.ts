import { hostAllowed, webhookUrlProblem as urlProblem } from '../http/webhook-url';

/** Browser-safe facts of alerts (no zod, no server code). */

export { webhookFormatOf } from '../http/webhook-url';

export const ALERT_CHANNELS = ['email', 'push', 'webhook'] as const;
export type AlertChannelName = (typeof ALERT_CHANNELS)[number];
export const WEBHOOK_FORMATS = ['json', 'slack', 'teams'] as const;
export type WebhookFormatName = (typeof WEBHOOK_FORMATS)[number];

/** Where an alert e-mail's link leads: the page that shows the alert and acknowledges it. */
export const ackPath = (alertId: string) => `/alerts/${alertId}/ack`;

/**
 * Why a webhook URL may not be used, or null: it must parse, name an allowed host (ALERT_WEBHOOK_HOSTS or a
 * subdomain) and be https (plain http only to a loopback host an admin listed).
 */
export const webhookUrlProblem = (url: string, allowedHosts: readonly string[]): string | null =>
  urlProblem(url, {
    field: 'webhookUrl',
    setting: 'ALERT_WEBHOOK_HOSTS',
    listed: allowedHosts.join(', '),
    allowed: (host) => hostAllowed(host, allowedHosts),
  });
