import { Card, EmptyState } from '../../ui/components';
import type { AuditEvent } from '../query';
import { EventPager, EventTable } from '../shared/EventTable';

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
          <EventTable events={events} timeZone={timeZone} showEntity={false} showDetails={showDetails} />
        )}
        <EventPager
          label="Activity pages"
          paged={props.paged}
          nextCursor={props.nextCursor}
          href={(cursor) => (cursor ? `${props.path}?cursor=${encodeURIComponent(cursor)}` : props.path)}
        />
      </Card>
    </div>
  );
}
