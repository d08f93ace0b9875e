import { Icon } from '../../ui/icons';

/** An item's comment count on cards and list rows (all comments, resolved or not); nothing when there are none. */
export function CommentCount({ count }: { count: number }) {
  if (!count) return null;
  const words = `${count} ${count === 1 ? 'comment' : 'comments'}`;
  return (
    <span className="comment-count muted small" title={words}>
      <Icon name="message" />
      <span className="visually-hidden">{words}</span>
      <span aria-hidden="true">{count}</span>
    </span>
  );
}
