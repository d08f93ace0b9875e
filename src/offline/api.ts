import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import type { Assets } from '../ui/assets';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { iconSpriteUrl } from '../ui/icons';
import { itemIdParam, keepInput } from './schemas';
import { keepItem, packOf, unkeepItem } from './service';

/** The web app manifest's address (linked from every page's head). */
export const MANIFEST_URL = '/manifest.webmanifest';

/** What the service worker keeps besides the pages: the shell every kept page loads (hashed files, icons). */
const shellOf = (assets: Assets) => [
  assets.css,
  assets.boot,
  assets.htmx,
  iconSpriteUrl,
  '/static/favicon.svg',
  MANIFEST_URL,
];

/**
 * GET /api/me/offline: the signed-in user's offline pack, as the service worker syncs it (their own data only, never
 * cached by anyone: no-store). POST /api/me/offline { itemId } keeps an item (201 when added, 200 when it was kept
 * already); DELETE /api/me/offline/{itemId} lets it go. Every role may keep what it may read.
 */
export function offlineApi() {
  const app = new Hono<AppEnv>();
  app.get('/api/me/offline', requireUser(), async (c) => {
    const user = c.var.user!;
    const items = await packOf(c.var.deps.db, user);
    c.header('Cache-Control', 'no-store');
    return c.json({ userId: user.id, timeZone: user.timezone, items, shell: shellOf(c.var.deps.assets) });
  });
  app.post('/api/me/offline', requireUser(), validate('json', keepInput), async (c) => {
    const { item, added } = await keepItem(c.var.deps.db, c.var.user!, c.req.valid('json').itemId);
    return c.json({ itemId: item.id, kept: true }, added ? 201 : 200);
  });
  app.delete('/api/me/offline/:itemId', requireUser(), validate('param', itemIdParam), async (c) => {
    const { itemId } = c.req.valid('param');
    await unkeepItem(c.var.deps.db, c.var.user!.id, itemId);
    return c.json({ itemId, kept: false });
  });
  return app;
}
