import { messageCard, slackEscape } from '../http/chat-messages';
import { escapeHtml, PRODUCT_NAME } from '../mail/service';
import type { DeliveryKind } from './queue';
import type { WebhookFormatName } from './shared';

/**
 * What an alert says, per channel: the e-mail, the push, and the three webhook bodies (generic JSON, Slack, Teams).
 * A message covers one alert or, in a storm, every alert of one rule, kind and recipient due in one run (a batch):
 * then it names the first LISTED servers and counts the rest.
 */

export interface AlertEvent {
  kind: DeliveryKind;
  /** Repeat number (0 for the first message and the recovery). */
  repeat: number;
  server: { id: string; name: string; address: string | null; environment: string; status: string };
  openedAt: Date;
  ackUrl: string;
  serverUrl: string;
}

/** The alerts one message covers (at least one, all of the same kind) and where the whole fleet is seen. */
export interface AlertBatch {
  kind: DeliveryKind;
  events: AlertEvent[];
  overviewUrl: string;
}

/** Most servers a batched message names; the rest are counted ("and 4,980 more"). */
export const LISTED = 20;

const single = (b: AlertBatch) => (b.events.length === 1 ? b.events[0] : null);
const listed = (b: AlertBatch) => b.events.slice(0, LISTED);
const more = (b: AlertBatch) => b.events.length - listed(b).length;
const andMore = (b: AlertBatch) => `and ${more(b).toLocaleString('en-US')} more`;

/** "web-1 is offline" / "web-1 is still offline (reminder 2)" / "web-1 is back online". */
export function alertHeadline(e: AlertEvent): string {
  if (e.kind === 'recovered')
    return `${e.server.name} is back ${e.server.status === 'warning' ? '(warning)' : 'online'}`;
  if (e.kind === 'repeat') return `${e.server.name} is still offline (reminder ${e.repeat})`;
  return `${e.server.name} is offline`;
}

/** The headline of a batch: one alert's own, or "5,000 servers are offline". */
export function batchHeadline(b: AlertBatch): string {
  const one = single(b);
  if (one) return alertHeadline(one);
  const n = b.events.length.toLocaleString('en-US');
  if (b.kind === 'recovered') return `${n} servers are back`;
  return b.kind === 'repeat' ? `${n} servers are still offline` : `${n} servers are offline`;
}

const where = (e: AlertEvent) => `${e.server.address ?? 'no address'}, ${e.server.environment}`;
const serverLine = (e: AlertEvent) => `${e.server.name} (${where(e)})`;

/** The alert e-mail: what happened, since when (in the reader's timezone), the server(s) and the acknowledge link(s). */
export function alertMail(
  b: AlertBatch,
  reader: { firstName: string | null; since: (d: Date) => string; timeZone: string },
) {
  const subject = `${PRODUCT_NAME} alert: ${batchHeadline(b)}`;
  const one = single(b);
  const recovered = b.kind === 'recovered';
  const lines = one
    ? [
        `${serverLine(one)} ${recovered ? 'is back' : 'has been offline'}; it went offline at ${reader.since(one.openedAt)} (${reader.timeZone}).`,
      ]
    : [
        ...listed(b).map((e) => `${serverLine(e)}, offline since ${reader.since(e.openedAt)}`),
        ...(more(b) ? [andMore(b)] : []),
      ];
  const ack = one && !recovered ? one.ackUrl : null;
  const open = one ? one.serverUrl : b.overviewUrl;
  const text = [
    reader.firstName ? `Hello ${reader.firstName},` : 'Hello,',
    '',
    ...(one ? lines : [`${batchHeadline(b)} (times in ${reader.timeZone}):`, '', ...lines.map((l) => `- ${l}`)]),
    '',
    `${one ? 'Server' : 'Servers'}: ${open}`,
    ...(ack ? [`Acknowledge (stops the reminders): ${ack}`] : []),
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
  const body = one
    ? lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')
    : `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<h1 style="font-size:18px">${escapeHtml(batchHeadline(b))}</h1>
${body}
<p>${link(open, one ? 'Open the server' : 'Open the infrastructure list')}</p>
${ack ? `<p>${link(ack, 'Acknowledge the alert')} (stops the reminders)</p>` : ''}
<p style="font-size:12px;color:#6b7280">— ${PRODUCT_NAME}</p>
</body></html>`;
  return { subject, text, html };
}

/** The browser notification: headline, where (or the first servers), and the page a click opens. */
export function alertPush(b: AlertBatch) {
  const one = single(b);
  if (one)
    return {
      title: `${PRODUCT_NAME}: ${alertHeadline(one)}`,
      body: serverLine(one),
      url: one.kind === 'recovered' ? one.serverUrl : one.ackUrl,
      tag: `alert-${one.server.id}`,
    };
  const names = listed(b).map((e) => e.server.name);
  return {
    title: `${PRODUCT_NAME}: ${batchHeadline(b)}`,
    body: [...names, ...(more(b) ? [andMore(b)] : [])].join(', '),
    url: b.overviewUrl,
    tag: `alert-batch-${b.kind}`,
  };
}

function slackBody(b: AlertBatch) {
  const icon = b.kind === 'recovered' ? ':large_green_circle:' : ':red_circle:';
  const one = single(b);
  if (one) {
    const ack = one.kind === 'recovered' ? '' : ` <${one.ackUrl}|Acknowledge>`;
    return {
      text: `${icon} ${slackEscape(alertHeadline(one))} (${slackEscape(where(one))}). <${one.serverUrl}|Open server>${ack}`,
    };
  }
  const lines = listed(b).map((e) => {
    const ack = e.kind === 'recovered' ? '' : ` <${e.ackUrl}|Acknowledge>`;
    return `• <${e.serverUrl}|${slackEscape(e.server.name)}> (${slackEscape(where(e))})${ack}`;
  });
  return {
    text: [`${icon} ${slackEscape(batchHeadline(b))}`, ...lines, ...(more(b) ? [andMore(b)] : [])].join('\n'),
  };
}

function teamsBody(b: AlertBatch) {
  const one = single(b);
  const facts = one
    ? [
        { name: 'Server', value: one.server.name },
        { name: 'Address', value: one.server.address ?? 'none' },
        { name: 'Environment', value: one.server.environment },
        { name: 'Offline since', value: one.openedAt.toISOString() },
      ]
    : [
        ...listed(b).map((e) => ({
          name: e.server.name,
          value: `${where(e)}, offline since ${e.openedAt.toISOString()}`,
        })),
        ...(more(b) ? [{ name: 'More', value: andMore(b) }] : []),
      ];
  const open = one ? { name: 'Open server', url: one.serverUrl } : { name: 'Open infrastructure', url: b.overviewUrl };
  return messageCard({
    summary: batchHeadline(b),
    title: batchHeadline(b),
    color: b.kind === 'recovered' ? '2EB886' : 'D13438',
    facts,
    links: [open, ...(one && one.kind !== 'recovered' ? [{ name: 'Acknowledge', url: one.ackUrl }] : [])],
  });
}

const jsonAlert = (e: AlertEvent) => ({
  server: e.server,
  status: e.server.status,
  openedAt: e.openedAt.toISOString(),
  ackUrl: e.ackUrl,
  repeat: e.repeat,
});

/** The webhook's body in the rule's format. */
export function webhookBody(format: WebhookFormatName, b: AlertBatch): unknown {
  if (format === 'slack') return slackBody(b);
  if (format === 'teams') return teamsBody(b);
  const one = single(b);
  if (one) return { event: `alert.${one.kind}`, ...jsonAlert(one) };
  return {
    event: `alert.${b.kind}.batch`,
    count: b.events.length,
    alerts: listed(b).map(jsonAlert),
    more: more(b),
  };
}
