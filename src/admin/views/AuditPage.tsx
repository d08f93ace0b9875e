import type { AuditEvent } from '../../audit/service';
import { Card, EmptyState } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import { displayName } from '../../ui/Sidebar';

const actorName = (a: AuditEvent['actor']) => (a ? displayName(a) : 'System');

/** The event's details in one line (the full JSON is in the API), cut to keep the table readable. */
function detailsText(details: Record<string, unknown>): string {
  const text = Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

function Pager({ page, hasMore }: { page: number; hasMore: boolean }) {
  if (page === 1 && !hasMore) return null;
  return (
    <nav className="row audit-pager" aria-label="Audit trail pages">
      {page > 1 && (
        <a className="btn btn--sm" href={`/admin/audit?page=${page - 1}`} rel="prev">
          Newer
        </a>
      )}
      <span className="muted small">{`Page ${page}`}</span>
      {hasMore && (
        <a className="btn btn--sm" href={`/admin/audit?page=${page + 1}`} rel="next">
          Older
        </a>
      )}
    </nav>
  );
}

/** The audit trail: time, actor, action, entity and details of each event, 50 a page. */
export function AuditPage({
  events,
  page,
  hasMore,
  timeZone,
}: {
  events: AuditEvent[];
  page: number;
  hasMore: boolean;
  timeZone: string;
}) {
  return (
    <Card title="Events" subtitle={`Newest first; times in ${timeZone}`}>
      {events.length === 0 ? (
        <EmptyState icon="history" title="No events" text="Nothing has been recorded on this page." />
      ) : (
        <div className="table-wrap">
          <table className="table audit-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Entity</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td>
                    <time dateTime={e.createdAt}>{formatDateTime(e.createdAt, timeZone)}</time>
                  </td>
                  <td>{actorName(e.actor)}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>{e.entityId ? `${e.entityType} ${e.entityId}` : e.entityType}</td>
                  <td className="small">{detailsText(e.details)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} hasMore={hasMore} />
    </Card>
  );
}
