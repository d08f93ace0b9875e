import type { AuditEvent } from '../../audit/service';
import { type AuditFilterValues, auditQueryString } from '../../audit/shared';
import { EventPager, EventTable } from '../../audit/shared/EventTable';
import { Banner, Card, EmptyState } from '../../ui/components';
import { type ActorOption, AuditFilters } from './AuditFilters';

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
        events.length > 0 && <EventTable events={events} timeZone={timeZone} showEntity showDetails />
      )}
      <EventPager
        label="Audit trail pages"
        paged={paged}
        nextCursor={nextCursor}
        href={(cursor) => `/admin/audit${auditQueryString({ ...filters, cursor })}`}
      />
    </Card>
  );
}
