import { Hono, type Context } from 'hono';
import { renderToString } from 'react-dom/server';
import type { AppEnv } from '../app-env';
import { publicRoute } from '../auth/policy';
import { clientIp } from '../http/client-ip';
import { hit } from '../http/rate-limit';
import { getObject } from '../objects/service';
import { hidePlaceholders } from '../runbooks/service';
import { renderedContent } from './rendered-content';
import { itemImageIds, shareHtml } from './share-content';
import { openShareLink } from './shares';
import { SHARE_NOT_FOUND, SharePage } from './views/SharePage';

/** Share-link lookups per address and minute: plenty for people, far too few to guess a token. */
const PAGE_LIMIT = { limit: 60, windowSeconds: 60 };
/** Image loads per address and minute (a page may show many images). */
const IMAGE_LIMIT = { limit: 600, windowSeconds: 60 };

/** Headers of every share answer: never indexed, never cached by others, no referrer, no script may run. */
function privateHeaders(c: Context<AppEnv>) {
  c.header('X-Robots-Tag', 'noindex, nofollow');
  c.header('Referrer-Policy', 'no-referrer');
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
}

const notFoundPage = (c: Context<AppEnv>) => {
  privateHeaders(c);
  c.header('Cache-Control', 'no-store');
  return c.html(SHARE_NOT_FOUND, 404);
};

/** The item a share link opens, after counting the lookup against the address (null: answer 404). */
async function sharedItem(c: Context<AppEnv>, key: string, rule: typeof PAGE_LIMIT) {
  const { db } = c.var.deps;
  const verdict = await hit(db, `${key}:${clientIp(c)}`, rule);
  if (!verdict.allowed) return null;
  return openShareLink(db, c.req.param('token') ?? '');
}

/** GET /s/{token}: the public read-only page; GET /s/{token}/images/{id}: an image that belongs to that item. */
export function sharePages() {
  const app = new Hono<AppEnv>();
  app.get('/s/:token', publicRoute(), async (c) => {
    const item = await sharedItem(c, 'share-link', PAGE_LIMIT);
    if (!item) return notFoundPage(c);
    const { appOrigin } = c.var.deps.config;
    // A share link's reader is nobody we know: placeholders show that server details are hidden, not the facts.
    const html = shareHtml(renderedContent(item, hidePlaceholders(item.content)).html, c.req.param('token'), appOrigin);
    const page = <SharePage title={item.title} updatedAt={item.updatedAt} html={html} css={c.var.deps.assets.css} />;
    privateHeaders(c);
    c.header('Cache-Control', 'private, no-store');
    return c.html(`<!DOCTYPE html>${renderToString(page)}`);
  });
  app.get('/s/:token/images/:imageId', publicRoute(), async (c) => {
    const item = await sharedItem(c, 'share-image', IMAGE_LIMIT);
    const id = c.req.param('imageId').toLowerCase();
    const object = item && itemImageIds(item).has(id) ? await getObject(c.var.deps.db, id) : null;
    if (!object) return notFoundPage(c);
    privateHeaders(c);
    c.header('Content-Type', object.contentType);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Content-Disposition', 'inline');
    c.header('Cache-Control', 'private, no-store');
    return c.body(new Uint8Array(object.data));
  });
  return app;
}
