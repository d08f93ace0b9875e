import { messageCard, slackEscape, slackLink } from '../http/chat-messages';
import type { WebhookEvent, WebhookFormat } from './shared';

/**
 * The body of one delivery in its endpoint's format: plain JSON `{ id, event, occurredAt, data }` (the delivery id,
 * the same at every attempt), or a Slack or Teams message saying what happened with a link to it.
 */

export interface DeliveryMessage {
  id: string;
  event: WebhookEvent;
  occurredAt: Date;
  data: Record<string, unknown>;
}

type Fields = Record<string, unknown>;

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
const part = (data: Fields, key: string): Fields =>
  data[key] && typeof data[key] === 'object' ? (data[key] as Fields) : {};

/** The data as sent: a top-level `path` also becomes an absolute `url`. */
export function sentData(data: Fields, appUrl: string): Fields {
  return typeof data.path === 'string' ? { ...data, url: `${appUrl}${data.path}` } : data;
}

/** One line saying what happened ("Server web-1 went offline"), and the facts a chat card lists. */
export function summarize(
  event: WebhookEvent,
  data: Fields,
): { headline: string; facts: { name: string; value: string }[] } {
  const item = part(data, 'item');
  const server = part(data, 'server');
  const user = part(data, 'user');
  const itemFacts = [
    { name: 'Space', value: text(item.space) },
    { name: 'Version', value: text(item.version) },
  ];
  const serverFacts = [
    { name: 'Address', value: text(server.ipAddress ?? server.hostname ?? server.address) || 'none' },
    { name: 'Environment', value: text(server.environment) },
  ];
  const change = [{ name: 'Status', value: `${text(data.from)} → ${text(data.to)}` }, ...serverFacts];
  switch (event) {
    case 'item.created':
    case 'item.updated':
    case 'item.deleted':
    case 'item.published': {
      const verb = event.slice(5);
      // A restricted item is sent without its title: the message names none either.
      if (typeof item.title !== 'string') return { headline: `A restricted item was ${verb}`, facts: itemFacts };
      if (event === 'item.updated' && item.latestVersion != null && item.latestVersion !== item.version)
        return { headline: `A new draft of ${item.title} was saved`, facts: itemFacts };
      return { headline: `${item.title} was ${verb}`, facts: itemFacts };
    }
    case 'server.created':
    case 'server.updated':
    case 'server.deleted':
      return { headline: `Server ${text(server.name)} was ${event.slice(7)}`, facts: serverFacts };
    case 'server.status_changed':
      return { headline: `Server ${text(server.name)} is now ${text(data.to)}`, facts: change };
    case 'check.failed':
      return { headline: `Server ${text(server.name)} went offline`, facts: change };
    case 'check.recovered':
      return { headline: `Server ${text(server.name)} is back (${text(data.to)})`, facts: change };
    case 'user.approved':
      return {
        headline: `${text(user.name) || 'A new user'} was approved`,
        facts: [{ name: 'Role', value: text(user.role) }],
      };
  }
}

/** Red for what went away or down, green for what came back, blue for the rest. */
function tone(event: WebhookEvent) {
  if (event === 'check.failed' || event.endsWith('.deleted')) return { icon: ':red_circle:', color: 'D13438' };
  if (event === 'check.recovered') return { icon: ':large_green_circle:', color: '2EB886' };
  return { icon: ':large_blue_circle:', color: '0078D7' };
}

/** The JSON text posted for a delivery (the signature covers exactly this text). */
export function deliveryBody(format: WebhookFormat, m: DeliveryMessage, appUrl: string): string {
  const data = sentData(m.data, appUrl);
  if (format === 'json')
    return JSON.stringify({ id: m.id, event: m.event, occurredAt: m.occurredAt.toISOString(), data });
  const { headline, facts } = summarize(m.event, m.data);
  const url = typeof data.url === 'string' ? data.url : null;
  if (format === 'slack') {
    return JSON.stringify({
      text: `${tone(m.event).icon} ${slackEscape(headline)}${url ? ` ${slackLink(url, 'Open')}` : ''}`,
    });
  }
  return JSON.stringify(
    messageCard({
      summary: headline,
      title: headline,
      color: tone(m.event).color,
      facts: facts.filter((f) => f.value),
      links: url ? [{ name: 'Open', url }] : [],
    }),
  );
}
