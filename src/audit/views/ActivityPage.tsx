import { Card, EmptyState } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import { displayName } from '../../ui/Sidebar';
import type { AuditEvent } from '../query';

export interface ActivityPageProps {
  /** What the activity is of, and where it is. */
  subject: { name: string; href: string };
  events: AuditEvent[];
  nextCursor: string | null;
  /** An older page (a cursor was followed). */
  paged: boolean;
  /** Admins and auditors see each event's details; others see who did what and when. */
  showDetails: boolean;
  timeZone: string;
  /** This page's own address, for the Older and Newest links. */
  path: string;
}

const detailsText = (details: Record<string, unknown>) =>
  Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');

function Pager({ path, paged, nextCursor }: Pick<ActivityPageProps, 'path' | 'paged' | 'nextCursor'>) {
  if (!paged && !nextCursor) return null;
  return (
    <nav className="row audit-pager" aria-label="Activity pages">
      {paged && (
        <a className="btn btn--sm" href={path} rel="first">
          Newest
        </a>
      )}
      {nextCursor && (
        <a className="btn btn--sm" href={`${path}?cursor=${encodeURIComponent(nextCursor)}`} rel="next">
          Older
        </a>
      )}
    </nav>
  );
}

/** An item's or a server's Activity: its audit events, newest first. */
export function ActivityPage(props: ActivityPageProps) {
  const { subject, events, showDetails, timeZone } = props;
  return (
    <div className="stack">
      <div className="row">
        <a className="btn btn--ghost" href={subject.href}>
          {`← Back to ${subject.name}`}
        </a>
      </div>
      <Card title="Activity" subtitle={`Newest first; times in ${timeZone}`}>
        {events.length === 0 ? (
          <EmptyState icon="history" title="No activity" text="Nothing has been recorded for this yet." />
        ) : (
          <div className="table-wrap">
            <table className="table audit-table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  {showDetails && <th scope="col">Details</th>}
                </tr>
              </thead>
              <tbody>
                {events.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <time dateTime={e.createdAt}>{formatDateTime(e.createdAt, timeZone)}</time>
                    </td>
                    <td>{e.actor ? displayName(e.actor) : 'System'}</td>
                    <td>
                      <code>{e.action}</code>
                    </td>
                    {showDetails && <td className="small">{detailsText(e.details)}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager path={props.path} paged={props.paged} nextCursor={props.nextCursor} />
      </Card>
    </div>
  );
}
