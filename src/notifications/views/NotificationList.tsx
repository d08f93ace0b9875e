import { formatDateTime } from '../../ui/shared';
import type { InboxNotification } from '../inbox';
import { BELL_BADGE_ID, UnreadBadge } from './UnreadBadge';

/** Where following a notification goes: it is marked read, then the browser is sent to its target. */
export const openHref = (id: string) => `/notifications/${id}`;

/** Notifications newest first; unread ones marked (in words for screen readers, a dot for the eye). */
export function NotificationList({ items, timeZone }: { items: InboxNotification[]; timeZone: string }) {
  if (!items.length) return <p className="muted notify-empty">No notifications yet.</p>;
  return (
    <ul className="notify-list">
      {items.map((n) => (
        <li key={n.id} className={n.readAt ? 'notify-item' : 'notify-item notify-item--unread'}>
          <a className="notify-item__link" href={openHref(n.id)}>
            {!n.readAt && <span className="visually-hidden">Unread: </span>}
            {n.text}
          </a>
          <time className="small muted" dateTime={n.createdAt}>
            {formatDateTime(n.createdAt, timeZone)}
          </time>
        </li>
      ))}
    </ul>
  );
}

/** "Mark all as read": a plain form; in the panel htmx swaps the panel with its answer. */
export function MarkAllRead({ inPanel }: { inPanel?: boolean }) {
  return (
    <form
      method="post"
      action="/notifications/read"
      hx-post={inPanel ? '/notifications/read' : undefined}
      hx-target={inPanel ? '#notify-panel' : undefined}
    >
      <button type="submit" className="btn btn--secondary btn--sm">
        Mark all as read
      </button>
    </form>
  );
}

/** The bell's drop-down: the latest notifications, Mark all as read, and the page with all of them. */
export function NotificationPanel(props: { items: InboxNotification[]; unread: number; timeZone: string }) {
  return (
    <>
      <div className="notify-panel__header">
        <h2 className="notify-panel__title">Notifications</h2>
        {props.unread > 0 && <MarkAllRead inPanel />}
      </div>
      <NotificationList items={props.items} timeZone={props.timeZone} />
      <a className="notify-panel__all small" href="/notifications">
        See all notifications
      </a>
      {/* The bell's badge follows what the panel shows. */}
      <UnreadBadge count={props.unread} oob />
    </>
  );
}

export { BELL_BADGE_ID };
