import { Card, EmptyState } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import type { OpenRequest } from '../queries';

/** "Review requests": the reader's open requests, newest first, each linking to the item to review. */
export function ReviewRequestsPage({ requests, timeZone }: { requests: OpenRequest[]; timeZone: string }) {
  if (!requests.length) {
    return (
      <Card>
        <EmptyState icon="clipboard" title="No review requests" text="Nothing is waiting for your review." />
      </Card>
    );
  }
  return (
    <Card>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Revision</th>
              <th scope="col">Requested by</th>
              <th scope="col">Requested</th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r) => (
              <tr key={r.id}>
                <td>
                  <a href={r.link}>{r.title}</a>
                </td>
                <td>{`v${r.version}`}</td>
                <td>{r.requestedBy ?? 'Unknown'}</td>
                <td>
                  <time dateTime={r.requestedAt}>{formatDateTime(r.requestedAt, timeZone)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

/** The sidebar link's count (empty when none): loaded after the page, so kept pages never show an old count. */
export function OpenCountBadge({ count }: { count: number }) {
  if (!count) return <span className="review-count" />;
  return (
    <span className="badge badge--red review-count">
      {count}
      <span className="visually-hidden"> open</span>
    </span>
  );
}
