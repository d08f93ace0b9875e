import { Banner, EmptyState } from '../../ui/components';
import { formatDateTime, relativeTime } from '../../ui/shared';
import type { DeletedItem } from '../deleted';

export interface DeletedPageProps {
  path: string;
  items: DeletedItem[];
  limit: number;
  timeZone: string;
  now: Date;
  /** The item just restored, with the address that opens it. */
  restored?: { title: string; href: string };
}

/** Admins' list of deleted items of a space, each with Restore (its latest version comes back as a new one). */
export function DeletedPage({ path, items, limit, timeZone, now, restored }: DeletedPageProps) {
  return (
    <div className="stack">
      {restored && (
        <Banner variant="success">
          {`“${restored.title}” was restored. `}
          <a href={restored.href}>Open it</a>
        </Banner>
      )}
      <p className="row">
        <a href={path}>← Back to the list</a>
        <span className="muted small">
          Deleted items keep every version. Restore brings an item back as it was when deleted, as a new version.
        </span>
      </p>
      {items.length === 0 ? (
        <EmptyState icon="file" title="No deleted items" text="Items deleted from this list can be restored here." />
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Title</th>
                <th>Category</th>
                <th>Version</th>
                <th>Deleted</th>
                <th>Deleted by</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.id}>
                  <td>{i.title}</td>
                  <td>{i.category || 'Uncategorized'}</td>
                  <td>v{i.version}</td>
                  <td>
                    <time dateTime={i.deletedAt} title={formatDateTime(i.deletedAt, timeZone)}>
                      {relativeTime(i.deletedAt, now)}
                    </time>
                  </td>
                  <td>{i.deletedBy ?? 'Unknown'}</td>
                  <td>
                    <form method="post" action={`${path}/${i.id}/undelete`}>
                      <button type="submit" className="btn btn--secondary btn--sm" aria-label={`Restore ${i.title}`}>
                        Restore
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {items.length >= limit && <p className="muted small">The {limit} most recently deleted are shown.</p>}
        </div>
      )}
    </div>
  );
}
