import { Badge, Card } from '../../ui/components';
import { formatDate } from '../../ui/shared';
import { itemHref } from '../../knowledge/shared';
import type { DueItem } from '../due-for-review';

export interface DueForReviewProps {
  items: DueItem[];
  timeZone: string;
}

/** "Server changed" (a linked server changed), "Review overdue", or "Review due {date}". */
function DueBadge({ item, timeZone }: { item: DueItem; timeZone: string }) {
  if (item.flagged) return <Badge colour="red">Server changed</Badge>;
  if (item.needsReview) return <Badge colour="red">Review overdue</Badge>;
  return <Badge colour="yellow">{`Review due ${formatDate(item.reviewDueAt, timeZone)}`}</Badge>;
}

/**
 * The "Due for review" panel (issue 22): items overdue, due soon or flagged by a server change that the reader may read, their own first, with a
 * link to the overdue list. Not shown when nothing is due.
 */
export function DueForReview({ items, timeZone }: DueForReviewProps) {
  if (!items.length) return null;
  return (
    <Card
      title="Due for review"
      actions={
        <a className="btn btn--sm" href="/knowledge-base?review=overdue">
          View overdue
        </a>
      }
    >
      <ul className="dash-recent" aria-label="Due for review">
        {items.map((item) => (
          <li key={item.id}>
            <a className="dash-recent__row" href={itemHref(item.space, item.id, item.title)}>
              <span className="dash-recent__text">
                <span className="dash-recent__title">{item.title}</span>
                {item.mine && <span className="muted small">Yours</span>}
              </span>
              <DueBadge item={item} timeZone={timeZone} />
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}
