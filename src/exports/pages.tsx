import { Hono, type Context } from 'hono';
import { renderToString } from 'react-dom/server';
import type { AppEnv } from '../app-env';
import { requirePageUser } from '../auth/policy';
import { htmlPage } from '../http/compress';
import { notFound } from '../http/errors';
import { readItem } from '../knowledge/service';
import { SPACES, spaces, type Space } from '../knowledge/shared';
import { PrintPage } from './views/PrintPage';

/** A uuid in a route pattern (anything else is the item's other pages, or a 404). */
const ID = ':id{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}';

async function printPage(c: Context<AppEnv>, space: Space) {
  const { db, assets } = c.var.deps;
  const user = c.var.user!;
  const draft = c.req.query('revision') === 'draft';
  const read = await readItem(db, space, c.req.param('id') ?? '', user, { draft, timeZone: user.timezone });
  if (!read) throw notFound(SPACES[space].messages.missing);
  const page = <PrintPage space={space} read={read} timeZone={user.timezone} css={assets.css} printedAt={new Date()} />;
  c.header('Cache-Control', 'private, no-store');
  // The page runs no script and sends no form: a policy that allows neither (the share page's).
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  return htmlPage(c, `<!DOCTYPE html>${renderToString(page)}`);
}

/**
 * GET /knowledge-base/{id}/print and /documents/{id}/print: the item as a clean page to print or save as PDF (whoever
 * may read it; 404 otherwise). `?revision=draft` as on the read page.
 */
export function printPages() {
  const app = new Hono<AppEnv>();
  for (const space of spaces) {
    app.get(`${SPACES[space].path}/${ID}/print`, requirePageUser(), (c) => printPage(c, space));
  }
  return app;
}
