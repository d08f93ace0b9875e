import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { requirePageUser, requireUser } from '../auth/policy';
import { notFound } from '../http/errors';
import { fragment, isHtmx } from '../http/htmx';
import { validate } from '../http/validate';
import { notificationVisibleTo } from '../knowledge/service';
import { listNotifications, markRead, openNotification, unreadCount } from './inbox';
import { markReadInput } from './schemas';
import { NotificationPanel } from './views/NotificationList';
import { NotificationsPage } from './views/NotificationsPage';
import { UnreadBadge } from './views/UnreadBadge';

/** How many the bell's panel shows; the page shows more. */
const PANEL_SIZE = 8;
const PAGE_SIZE = 100;

/** The signed-in user's inbox as they may see it (notifications about items they cannot read are left out). */
async function inbox(c: Context<AppEnv>, limit: number) {
  const { db } = c.var.deps;
  const user = c.var.user!;
  const visible = notificationVisibleTo(user);
  const [items, unread] = await Promise.all([
    listNotifications(db, user.id, visible, limit),
    unreadCount(db, user.id, visible),
  ]);
  return { items, unread, timeZone: user.timezone };
}

/** A notification's own link: an in-app path only (never another site). */
const inAppPath = (link: string) => (/^\/(?![/\\])/.test(link) ? link : '/notifications');

/**
 * The bell: GET /api/me/notifications, POST /api/me/notifications/read { ids? }; the /notifications page, the bell's
 * panel and badge fragments, Mark all as read, and /notifications/{id} (marks it read, then opens its target).
 */
export function inboxRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/api/me/notifications', requireUser(), async (c) => {
    const { items, unread } = await inbox(c, PAGE_SIZE);
    return c.json({ notifications: items, unreadCount: unread });
  });
  app.post('/api/me/notifications/read', requireUser(), validate('json', markReadInput), async (c) => {
    const { db } = c.var.deps;
    const user = c.var.user!;
    await markRead(db, user.id, c.req.valid('json').ids);
    return c.json({ unreadCount: await unreadCount(db, user.id, notificationVisibleTo(user)) });
  });

  app.get('/notifications', requirePageUser(), async (c) =>
    c.render(<NotificationsPage {...(await inbox(c, PAGE_SIZE))} />, { title: 'Notifications' }),
  );
  app.get('/notifications/panel', requirePageUser(), async (c) =>
    fragment(c, <NotificationPanel {...(await inbox(c, PANEL_SIZE))} />),
  );
  app.get('/notifications/badge', requirePageUser(), async (c) => {
    const user = c.var.user!;
    return fragment(c, <UnreadBadge count={await unreadCount(c.var.deps.db, user.id, notificationVisibleTo(user))} />);
  });
  app.post('/notifications/read', requirePageUser(), async (c) => {
    await markRead(c.var.deps.db, c.var.user!.id);
    if (isHtmx(c)) return fragment(c, <NotificationPanel {...(await inbox(c, PANEL_SIZE))} />);
    return c.redirect('/notifications', 303);
  });
  app.get('/notifications/:id', requirePageUser(), async (c) => {
    const id = z.uuid().safeParse(c.req.param('id'));
    const link = id.success ? await openNotification(c.var.deps.db, c.var.user!.id, id.data) : null;
    if (!link) throw notFound('Notification not found.');
    return c.redirect(inAppPath(link), 303);
  });
  return app;
}
