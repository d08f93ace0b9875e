import { Skeleton } from '../../ui/components';
import { relativeTime } from '../../ui/shared';
import type { Item } from '../schemas';
import { listItemHref, spaceOfPath } from '../shared';
import { DeleteButton, TypeLabel } from './ItemBits';
import { ReviewOverdueBadge } from './ReviewDate';
import { CommentCount } from '../../comments/shared/CommentCount';

/** List view: Title, Type, Category, Version, Updated, and a delete button per row. */
export function ItemList(props: { items: Item[]; path: string; now: Date; canEdit: (item: Item) => boolean }) {
  const { items, path, now, canEdit } = props;
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Type</th>
            <th scope="col">Category</th>
            <th scope="col">Version</th>
            <th scope="col">Updated</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <td>
                <a href={listItemHref(spaceOfPath(path), item)}>{item.title}</a>{' '}
                <CommentCount count={item.commentCount} /> <ReviewOverdueBadge item={item} />
              </td>
              <td>
                <TypeLabel item={item} />
              </td>
              <td>{item.category || <span className="muted">Uncategorized</span>}</td>
              <td>{`v${item.version}`}</td>
              <td>
                <time dateTime={item.updatedAt}>{relativeTime(item.updatedAt, now)}</time>
              </td>
              <td>{canEdit(item) && <DeleteButton href={`${path}/${item.id}/delete`} title={item.title} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Eight skeleton rows while htmx loads the results. */
export function ListSkeleton() {
  return (
    <div className="table-wrap kb-list-skeleton">
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} />
      ))}
    </div>
  );
}
