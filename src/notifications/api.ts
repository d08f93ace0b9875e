import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { badRequest, conflict } from '../http/errors';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { pushSubscriptionInput } from './schemas';
import { subscribePush, unsubscribePush } from './service';

/** True when the endpoint's host is one of `hosts` or a subdomain of one. */
export function isPushService(endpoint: string, hosts: string[]): boolean {
  const host = new URL(endpoint).hostname.toLowerCase();
  return hosts.some((h) => host === h || host.endsWith(`.${h}`));
}

/**
 * The browser's push subscription: POST stores it and turns Push on, DELETE turns Push off. The service worker whose
 * handlers show the pushes (static/sw.js) is served at /sw.js with the offline pack's (src/offline/worker-route.ts).
 */
export function notificationRoutes() {
  const app = new Hono<AppEnv>();
  app.use('/api/notifications/*', requireUser());
  app.post('/api/notifications/push-subscription', validate('json', pushSubscriptionInput), async (c) => {
    if (!c.var.deps.config.push) {
      throw conflict(
        'Push notifications are not set up on this server: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT are not set.',
        'push_not_configured',
      );
    }
    const subscription = c.req.valid('json');
    if (!isPushService(subscription.endpoint, c.var.deps.config.pushServiceHosts))
      throw badRequest('endpoint is not a browser push service.');
    await subscribePush(c.var.deps.db, c.var.user!.id, subscription, c.req.header('user-agent'));
    return c.json({ message: 'Push notifications are on for this browser.' }, 201);
  });
  app.delete('/api/notifications/push-subscription', async (c) => {
    await unsubscribePush(c.var.deps.db, c.var.user!.id);
    return c.json({ message: 'Push notifications are off.' });
  });
  return app;
}
