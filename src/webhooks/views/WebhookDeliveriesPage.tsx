import { Badge, Card, EmptyState } from '../../ui/components';
import type { BadgeColour } from '../../ui/shared';
import { formatDateTime } from '../../ui/shared';
import type { WebhookDelivery, WebhookEndpoint } from '../commands';

export interface WebhookDeliveriesPageProps {
  endpoint: WebhookEndpoint;
  deliveries: WebhookDelivery[];
  timeZone: string;
}

const COLOURS: Record<string, BadgeColour> = { sent: 'green', failed: 'red', pending: 'yellow', sending: 'blue' };

/** The answer as sent (up to 500 characters), wrapped inside its cell. */
const ANSWER_STYLE = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxWidth: '28rem', margin: 0 } as const;

function Answer({ d }: { d: WebhookDelivery }) {
  if (!d.attempts && !d.lastAttemptAt) return <>Not tried yet</>;
  return (
    <>
      {d.lastStatus !== null ? <strong>{d.lastStatus}</strong> : 'No answer'}
      {d.lastResponse ? (
        <pre className="muted" style={ANSWER_STYLE}>
          {d.lastResponse}
        </pre>
      ) : null}
    </>
  );
}

function DeliveryRow({ d, timeZone }: { d: WebhookDelivery; timeZone: string }) {
  const waiting = d.status === 'pending' && d.attempts > 0;
  return (
    <tr>
      <td data-label="Happened">{formatDateTime(d.occurredAt, timeZone)}</td>
      <th scope="row" data-label="Event">
        <code>{d.event}</code>
      </th>
      <td data-label="Delivery id">
        <code>{d.id}</code>
      </td>
      <td data-label="Status">
        <Badge colour={COLOURS[d.status] ?? 'neutral'}>{d.status}</Badge>
        {waiting && ` next try ${formatDateTime(d.nextAttemptAt, timeZone)}`}
      </td>
      <td data-label="Attempts">{d.attempts}</td>
      <td data-label="Last answer">
        <Answer d={d} />
      </td>
      <td data-label="Actions">
        {d.status !== 'sending' && (
          <form method="post" action={`/admin/webhook-deliveries/${d.id}/resend`}>
            <button type="submit" className="btn btn--sm" aria-label={`Re-send ${d.event} delivery ${d.id}`}>
              Re-send
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

/** /admin/webhooks/{id}: one endpoint's newest deliveries, with the receiver's last answer and a Re-send button. */
export function WebhookDeliveriesPage({ endpoint, deliveries, timeZone }: WebhookDeliveriesPageProps) {
  return (
    <div className="stack">
      <p>
        <a href="/admin/webhooks">← All webhooks</a>
      </p>
      <Card
        title={endpoint.url}
        subtitle={`${endpoint.format} body; ${endpoint.events.includes('*') ? 'all events' : endpoint.events.join(', ')}`}
      >
        {deliveries.length ? (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Happened</th>
                  <th scope="col">Event</th>
                  <th scope="col">Delivery id</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((d) => (
                  <DeliveryRow key={d.id} d={d} timeZone={timeZone} />
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <EmptyState icon="zap" title="No deliveries yet" text="Events this webhook wants are listed here." />
        )}
      </Card>
    </div>
  );
}
