import { Badge, Banner, Card } from '../../ui/components';
import { formatDateTime, statusColour } from '../../ui/shared';
import type { AlertDetail } from '../service';
import { ackPath } from '../shared';

/** /alerts/{id}/ack: the alert, and a button that acknowledges it (a plain POST form). */
export function AckPage({
  alert,
  timeZone,
  mayAck,
  done,
}: {
  alert: AlertDetail;
  timeZone: string;
  mayAck: boolean;
  done?: boolean;
}) {
  const state = alert.closedAt ? 'closed' : alert.acknowledgedAt ? 'acknowledged' : 'open';
  return (
    <Card
      title={`Alert: ${alert.serverName} ${state === 'closed' ? 'was offline' : 'is offline'}`}
      subtitle={`Rule: ${alert.ruleName}`}
    >
      <div className="stack">
        {done && <Banner variant="success">Alert acknowledged: no more reminders.</Banner>}
        <p>
          <a href={`/infrastructure/${alert.serverId}`}>{alert.serverName}</a> went offline at{' '}
          {formatDateTime(alert.openedAt, timeZone)}. Now:{' '}
          <Badge colour={statusColour(alert.serverStatus)}>{alert.serverStatus}</Badge>
        </p>
        <p data-alert-state={state}>
          {state === 'closed' && `Closed at ${formatDateTime(alert.closedAt, timeZone)}: the server is back.`}
          {state === 'acknowledged' && `Acknowledged at ${formatDateTime(alert.acknowledgedAt, timeZone)}.`}
          {state === 'open' && 'Open: reminders are sent until someone acknowledges it.'}
        </p>
        {state === 'open' &&
          (mayAck ? (
            <form method="post" action={ackPath(alert.id)}>
              <button type="submit" className="btn btn--primary">
                Acknowledge
              </button>
            </form>
          ) : (
            <p className="muted">Only editors, admins and the people this rule alerts may acknowledge it.</p>
          ))}
      </div>
    </Card>
  );
}
