import { Badge, Skeleton } from '../../ui/components';
import type { Item } from '../schemas';
import { listItemHref, spaceOfPath } from '../shared';
import { DeleteButton, TagList, TypeLabel, VersionAge } from './ItemBits';
import { ReviewOverdueBadge } from './ReviewDate';
import { CommentCount } from '../../comments/shared/CommentCount';

export interface GridProps {
  items: Item[];
  /** '/knowledge-base' or '/documents': links to the editor and the delete confirmation. */
  path: string;
  now: Date;
  /** Knowledge items show their type (icon and label). */
  showType?: boolean;
  /** Whether the reader may edit (and so delete) an item: only those show a delete button. */
  canEdit: (item: Item) => boolean;
}

/** One card: type, Template and category badges, delete, title (opens the item, see listItemHref), excerpt, version, age, tags. */
function ItemCard({ item, path, now, showType, canEdit }: { item: Item } & Omit<GridProps, 'items'>) {
  return (
    <article className="card card--link kb-card">
      <div className="card__body stack">
        <div className="row kb-card__top">
          <div className="row kb-card__badges">
            {showType && <TypeLabel item={item} />}
            {item.isTemplate && <Badge colour="purple">Template</Badge>}
            {item.category && <Badge colour="blue">{item.category}</Badge>}
            <ReviewOverdueBadge item={item} />
          </div>
          {canEdit(item) && <DeleteButton href={`${path}/${item.id}/delete`} title={item.title} />}
        </div>
        <h3 className="card__title">
          <a href={listItemHref(spaceOfPath(path), item)}>{item.title}</a>
        </h3>
        {item.excerpt && <p className="muted kb-card__excerpt">{item.excerpt}</p>}
        <VersionAge item={item} now={now} /> <CommentCount count={item.commentCount} />
        <TagList tags={item.tags} />
      </div>
    </article>
  );
}

/** The card grid (three columns on wide screens). */
export function ItemGrid(props: GridProps) {
  return (
    <div className="grid grid--3" data-testid="item-grid">
      {props.items.map((item) => (
        <ItemCard
          key={item.id}
          item={item}
          path={props.path}
          now={props.now}
          showType={props.showType}
          canEdit={props.canEdit}
        />
      ))}
    </div>
  );
}

/** Six skeleton cards while htmx loads the results. */
export function GridSkeleton() {
  return (
    <div className="grid grid--3">
      {Array.from({ length: 6 }, (_, i) => (
        <Skeleton key={i} className="skeleton--card" />
      ))}
    </div>
  );
}
