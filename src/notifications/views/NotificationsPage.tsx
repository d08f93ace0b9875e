import type { InboxNotification } from '../inbox';
import { MarkAllRead, NotificationList } from './NotificationList';

/** /notifications: every notification of the reader, newest first, unread marked (the bell without JavaScript). */
export function NotificationsPage(props: { items: InboxNotification[]; unread: number; timeZone: string }) {
  return (
    <section className="card notify-page stack">
      <div className="notify-panel__header">
        <h2 className="notify-panel__title">{props.unread ? `${props.unread} unread` : 'All read'}</h2>
        {props.unread > 0 && <MarkAllRead />}
      </div>
      <NotificationList items={props.items} timeZone={props.timeZone} />
    </section>
  );
}
