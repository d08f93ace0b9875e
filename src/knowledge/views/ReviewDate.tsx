import { useContext } from 'react';
import { Badge } from '../../ui/components';
import { RequestContext } from '../../ui/request-context';
import { formatDate } from '../../ui/shared';
import { flagWords } from '../../runbooks/service';
import type { ReviewFlag } from '../../runbooks/shared';
import type { Item } from '../schemas';
import { SPACES, type Space } from '../shared';

/**
 * Review dates on the screens (issue 22): the overdue badge of cards and rows, the read page's review line with the
 * changes of linked servers that flag it (issue 23).
 */

type Dated = Pick<Item, 'reviewDueAt' | 'needsReview' | 'reviewFlags'>;

/** The id the read page's review line has (the Mark as reviewed form swaps it). */
export const REVIEW_STATUS_ID = 'review-status';

/** "Server changed" (a linked server changed) and "Review overdue" on a card or list row; nothing when neither. */
export function ReviewOverdueBadge({ item }: { item: Dated }) {
  const overdue = !!item.reviewDueAt && new Date(item.reviewDueAt).getTime() <= Date.now();
  return (
    <>
      {!!item.reviewFlags?.length && <Badge colour="red">Server changed</Badge>}
      {!!item.reviewFlags?.length && overdue && ' '}
      {overdue && <Badge colour="red">Review overdue</Badge>}
    </>
  );
}

/** "Review overdue", or "Review due {date}" in the reader's timezone; nothing for an item without a review date. */
export function ReviewDueBadge({ item, timeZone }: { item: Dated; timeZone: string }) {
  if (!item.reviewDueAt) return null;
  if (item.needsReview) return <Badge colour="red">Review overdue</Badge>;
  return <Badge colour="neutral">{`Review due ${formatDate(item.reviewDueAt, timeZone)}`}</Badge>;
}

export interface ReviewStatusProps {
  space: Space;
  item: Pick<
    Item,
    'id' | 'ownerId' | 'reviewIntervalDays' | 'reviewedAt' | 'reviewDueAt' | 'needsReview' | 'reviewFlags'
  >;
  timeZone: string;
  /** May the reader mark it reviewed (they may edit it)? Its owner may too, found from the request in a page. */
  canMark: boolean;
}

/** The reader may mark it reviewed: an editor of the item, or its owner. */
function useMayMark({ item, canMark }: Pick<ReviewStatusProps, 'item' | 'canMark'>): boolean {
  const c = useContext(RequestContext);
  const userId = c?.var.user?.id;
  return canMark || (!!userId && userId === item.ownerId);
}

/** "Needs review: web1's IP address changed 127.0.0.1 → 127.0.0.2, 27 Nov 2026 by Ada", one line a flag. */
export function ReviewFlags({ flags, timeZone }: { flags: ReviewFlag[]; timeZone: string }) {
  return (
    <ul className="doc__flags" aria-label="Linked server changes">
      {flags.map((f) => (
        <li key={`${f.serverId}-${f.field}-${f.at}`}>
          <Badge colour="red">Needs review</Badge> {`${flagWords(f)}, ${formatDate(f.at, timeZone)} by ${f.by}`}
        </li>
      ))}
    </ul>
  );
}

/**
 * The read page's review line: what changed on linked servers since the last review, the due badge, when it was last
 * reviewed, and "Mark as reviewed" for those allowed (a form: htmx swaps this line, without JavaScript the page
 * reloads). Nothing for an item with neither a review date nor flags.
 */
export function ReviewStatus(props: ReviewStatusProps) {
  const { space, item, timeZone } = props;
  const mayMark = useMayMark(props);
  const flags = item.reviewFlags ?? [];
  const dated = !!item.reviewIntervalDays && !!item.reviewDueAt;
  if (!dated && !flags.length) return null;
  const action = `${SPACES[space].path}/${item.id}/mark-reviewed`;
  return (
    <div id={REVIEW_STATUS_ID} className="doc__review small">
      {flags.length > 0 && <ReviewFlags flags={flags} timeZone={timeZone} />}
      <div className="row">
        {dated && (
          <>
            <ReviewDueBadge item={item} timeZone={timeZone} />{' '}
            <span className="muted">
              {`Review every ${item.reviewIntervalDays} days`}
              {item.reviewedAt ? ` · last reviewed ${formatDate(item.reviewedAt, timeZone)}` : ''}
            </span>{' '}
          </>
        )}
        {mayMark && (
          <form method="post" action={action} hx-post={action} hx-target={`#${REVIEW_STATUS_ID}`} hx-swap="outerHTML">
            <button type="submit" className="btn btn--secondary btn--sm">
              Mark as reviewed
            </button>
          </form>
        )}
      </div>
    </div>
  );
}
