import type { AuditEvent } from '../../audit/service';
import { type AuditFilterValues, auditQueryString } from '../../audit/shared';
import { Banner, Card, EmptyState } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import { displayName } from '../../ui/Sidebar';
import { type ActorOption, AuditFilters } from './AuditFilters';

const actorName = (a: AuditEvent['actor']) => (a ? displayName(a) : 'System');

/** The event's details in one line (the full JSON is in the API and the CSV), cut to keep the table readable. */
function detailsText(details: Record<string, unknown>): string {
  const text = Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/** Back to the newest events and on to older ones (a keyset cursor: no page numbers), the filters kept. */
function Pager({
  filters,
  paged,
  nextCursor,
}: {
  filters: AuditFilterValues;
  paged: boolean;
  nextCursor: string | null;
}) {
  if (!paged && !nextCursor) return null;
  return (
    <nav className="row audit-pager" aria-label="Audit trail pages">
      {paged && (
        <a className="btn btn--sm" href={`/admin/audit${auditQueryString(filters)}`} rel="first">
          Newest
        </a>
      )}
      {nextCursor && (
        <a
          className="btn btn--sm"
          href={`/admin/audit${auditQueryString({ ...filters, cursor: nextCursor })}`}
          rel="next"
        >
          Older
        </a>
      )}
    </nav>
  );
}

function EventTable({ events, timeZone }: { events: AuditEvent[]; timeZone: string }) {
  return (
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
  );
}

export interface AuditPageProps {
  events: AuditEvent[];
  nextCursor: string | null;
  /** An older page (a cursor was followed). */
  paged: boolean;
  filters: AuditFilterValues;
  actors: ActorOption[];
  timeZone: string;
  /** The filters' problem in words (400): nothing was searched. */
  error?: string;
}

/** The audit trail: filters (a GET form), the CSV of the same filters, then time, actor, action, entity, details. */
export function AuditPage({ events, nextCursor, paged, filters, actors, timeZone, error }: AuditPageProps) {
  const filtered = Object.keys(filters).length > 0;
  const csv = (
    <a className="btn btn--sm" href={`/api/admin/audit.csv${auditQueryString(filters)}`} download>
      Download CSV
    </a>
  );
  return (
    <Card title="Events" subtitle={`Newest first; times in ${timeZone}`} actions={csv}>
      <AuditFilters values={filters} actors={actors} timeZone={timeZone} />
      {error && <Banner variant="error">{error}</Banner>}
      {!error && events.length === 0 ? (
        <EmptyState
          icon="history"
          title="No events"
          text={filtered ? 'No event matches these filters.' : 'Nothing has been recorded yet.'}
        />
      ) : (
        events.length > 0 && <EventTable events={events} timeZone={timeZone} />
      )}
      <Pager filters={filters} paged={paged} nextCursor={nextCursor} />
    </Card>
  );
}
