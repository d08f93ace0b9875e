import { formatDateTime } from '../../ui/shared';
import { displayName } from '../../ui/Sidebar';
import type { AuditEvent } from '../query';

/** The audit trail's table and its keyset pager, for /admin/audit and each item's and server's Activity. */

/** The event's details in one line (the full JSON is in the API and the CSV), cut to keep the table readable. */
function detailsText(details: Record<string, unknown>): string {
  const text = Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

export interface EventTableProps {
  events: AuditEvent[];
  timeZone: string;
  /** The Entity column (the whole trail; an Activity page is of one entity). */
  showEntity: boolean;
  /** The Details column (admins and auditors). */
  showDetails: boolean;
}

export function EventTable({ events, timeZone, showEntity, showDetails }: EventTableProps) {
  return (
    <div className="table-wrap">
      <table className="table audit-table">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            {showEntity && <th scope="col">Entity</th>}
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
              {showEntity && <td>{e.entityId ? `${e.entityType} ${e.entityId}` : e.entityType}</td>}
              {showDetails && <td className="small">{detailsText(e.details)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Newest and Older links: `href(cursor)` is the page's address with a cursor, or without one for the newest. */
export function EventPager(props: {
  label: string;
  paged: boolean;
  nextCursor: string | null;
  href: (cursor?: string) => string;
}) {
  const { label, paged, nextCursor, href } = props;
  if (!paged && !nextCursor) return null;
  return (
    <nav className="row audit-pager" aria-label={label}>
      {paged && (
        <a className="btn btn--sm" href={href()} rel="first">
          Newest
        </a>
      )}
      {nextCursor && (
        <a className="btn btn--sm" href={href(nextCursor)} rel="next">
          Older
        </a>
      )}
    </nav>
  );
}
