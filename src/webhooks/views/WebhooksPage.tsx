import { Badge, Banner, Card, EmptyState, Field } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import type { WebhookEndpoint } from '../commands';
import { EVENT_LABELS, WEBHOOK_EVENTS, WEBHOOK_FORMATS } from '../shared';

export interface WebhooksPageProps {
  endpoints: WebhookEndpoint[];
  timeZone: string;
  /** WEBHOOK_ALLOW_HOSTS as listed (empty: nothing may be registered). */
  allowed: string[];
  /** A secret made for the endpoint just registered, shown this once. */
  madeSecret?: { url: string; secret: string };
  /** A fresh secret the form offers. */
  suggestedSecret: string;
  errors?: Record<string, string>;
  values?: Record<string, string | string[]>;
}

const str = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));

const eventsText = (events: string[]) => (events.includes('*') ? 'All events' : events.join(', '));

function LastDelivery({ e, timeZone }: { e: WebhookEndpoint; timeZone: string }) {
  if (!e.last) return <>None yet</>;
  const colour = e.last.status === 'sent' ? 'green' : e.last.status === 'failed' ? 'red' : 'yellow';
  return (
    <>
      <Badge colour={colour}>{e.last.status}</Badge>
      {e.last.lastStatus !== null && ` ${e.last.lastStatus}`} {formatDateTime(e.last.at, timeZone)}
    </>
  );
}

function EndpointRow({ e, timeZone }: { e: WebhookEndpoint; timeZone: string }) {
  return (
    <tr>
      <th scope="row" data-label="URL">
        <a href={`/admin/webhooks/${e.id}`}>{e.url}</a>
      </th>
      <td data-label="Events">{eventsText(e.events)}</td>
      <td data-label="Format">{e.format}</td>
      <td data-label="Secret">{e.secretHint ?? 'Set (not shown)'}</td>
      <td data-label="Last delivery">
        <LastDelivery e={e} timeZone={timeZone} />
      </td>
      <td data-label="Queue">
        {`${e.pending} waiting, ${e.failed} failed`}
        {e.dropped > 0 && (
          <>
            , <strong>{`${e.dropped} dropped`}</strong>
            {` since ${formatDateTime(e.droppedSince!, timeZone)} (the queue was full)`}
          </>
        )}
      </td>
      <td data-label="Actions">
        <div className="row">
          <a className="btn btn--sm" href={`/admin/webhooks/${e.id}`}>
            Deliveries
          </a>
          <form method="post" action={`/admin/webhooks/${e.id}/delete`}>
            <button type="submit" className="btn btn--sm btn--danger" aria-label={`Delete webhook ${e.url}`}>
              Delete
            </button>
          </form>
        </div>
      </td>
    </tr>
  );
}

function RegisterForm(props: WebhooksPageProps) {
  const { errors = {}, values = {} } = props;
  const sent = values.url !== undefined;
  const chosen = new Set([values.events ?? []].flat());
  const off = !props.allowed.length;
  return (
    <Card title="Register a webhook" subtitle="Events are posted as they happen, signed with the secret">
      {off && (
        <Banner variant="info">
          No receiver is allowed yet: WEBHOOK_ALLOW_HOSTS is empty. Ask whoever runs Ops Hub to list the receivers' host
          names or networks there.
        </Banner>
      )}
      {errors.form && <Banner variant="error">{errors.form}</Banner>}
      <form method="post" action="/admin/webhooks" className="stack">
        <Field
          label="URL"
          htmlFor="webhook-url"
          hint={off ? undefined : `Allowed hosts and networks: ${props.allowed.join(', ')}`}
          error={errors.url}
        >
          <input
            id="webhook-url"
            className="input"
            name="url"
            type="url"
            required
            maxLength={2000}
            defaultValue={str(values.url)}
          />
        </Field>
        <Field
          label="Secret"
          htmlFor="webhook-secret"
          hint={
            sent
              ? 'Type it again: a secret is not sent back. Empty: one is made.'
              : 'Copy it now: it signs every delivery and is not shown again. Empty: one is made.'
          }
          error={errors.secret}
        >
          <input
            id="webhook-secret"
            className="input"
            name="secret"
            autoComplete="off"
            maxLength={200}
            defaultValue={sent ? '' : props.suggestedSecret}
          />
        </Field>
        <fieldset className="stack">
          <legend className="field__label">Events</legend>
          <label>
            <input type="checkbox" name="events" value="*" defaultChecked={sent ? chosen.has('*') : true} /> All events
            (also those added later)
          </label>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event}>
              <input type="checkbox" name="events" value={event} defaultChecked={chosen.has(event)} />{' '}
              {EVENT_LABELS[event]} <code>{event}</code>
            </label>
          ))}
          {errors.events && (
            <p className="field__error" role="alert">
              {errors.events}
            </p>
          )}
        </fieldset>
        <Field label="Body" htmlFor="webhook-format" error={errors.format}>
          <select id="webhook-format" className="select" name="format" defaultValue={str(values.format)}>
            <option value="">From the URL's host (Slack, Teams, else JSON)</option>
            {WEBHOOK_FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </Field>
        <div>
          <button type="submit" className="btn btn--primary">
            Register webhook
          </button>
        </div>
      </form>
    </Card>
  );
}

/** /admin/webhooks: the endpoints with their last delivery, Delete buttons, and a plain form to register one. */
export function WebhooksPage(props: WebhooksPageProps) {
  return (
    <div className="stack">
      {props.madeSecret && (
        <Banner variant="success">
          Webhook registered for {props.madeSecret.url}. Its secret (copy it now, it is not shown again):{' '}
          <code>{props.madeSecret.secret}</code>
        </Banner>
      )}
      <Card title="Webhooks">
        {props.endpoints.length ? (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Format</th>
                  <th scope="col">Secret</th>
                  <th scope="col">Last delivery</th>
                  <th scope="col">Queue</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {props.endpoints.map((e) => (
                  <EndpointRow key={e.id} e={e} timeZone={props.timeZone} />
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <EmptyState icon="zap" title="No webhooks yet" text="Nothing is posted to other systems." />
        )}
      </Card>
      <RegisterForm {...props} />
    </div>
  );
}
