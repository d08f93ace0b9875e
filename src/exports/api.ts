import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allow, requireUser } from '../auth/policy';
import { notFound } from '../http/errors';
import { enforce } from '../http/rate-limit';
import { validate } from '../http/validate';
import { SPACES, spaces, type Space } from '../knowledge/shared';
import { attachment, zipHeaders } from './http';
import { spaceExportQuery } from './schemas';
import { exportSpace, itemExport, itemFileName, itemZip, plainMarkdown } from './service';

/** Whole-space exports a person may start in an hour (each reads the whole space). */
const SPACE_EXPORTS_PER_HOUR = 30;
/** Item zips a person may download in a minute (each reads the item's images). */
const ITEM_ZIPS_PER_MINUTE = 60;

const today = () => new Date().toISOString().slice(0, 10);

/** `?revision=draft`: the newest revision, as on the read page (for those who may edit or review the item). */
const draftOf = (c: Context<AppEnv>) => c.req.query('revision') === 'draft';

/** Logs a zip that failed while it streamed (its headers were sent; the reader gets a cut-off file). */
const logFailure = (c: Context<AppEnv>) => (err: unknown) =>
  c.var.logger.error({ err, reqId: c.var.requestId, path: c.req.path }, 'export failed while streaming');

/**
 * GET /api/{base}/{id}/export.md and export.zip: one item (whoever may read it; 404 otherwise, like its page), as its
 * read page shows it (`?revision=draft` too).
 * An item that links to stored images has no single-file form: export.md redirects (302) to export.zip, the .md
 * with `images/<id>.<ext>` beside it. export.zip of an item without images holds the .md alone.
 */
function itemExportApi(space: Space) {
  const app = new Hono<AppEnv>();
  const base = SPACES[space].api;
  app.get(`${base}/:id/export.md`, requireUser(), async (c) => {
    const draft = draftOf(c);
    const prepared = await itemExport(c.var.deps.db, c.var.user, space, c.req.param('id'), { draft });
    if (!prepared) throw notFound('Item not found.');
    const zip = `${base}/${prepared.item.id}/export.zip${draft ? '?revision=draft' : ''}`;
    if (prepared.images.length) return c.redirect(zip, 302);
    return c.body(plainMarkdown(prepared), 200, {
      'Content-Type': 'text/markdown; charset=utf-8',
      'Content-Disposition': attachment(itemFileName(prepared, 'md'), 'item.md'),
      'Cache-Control': 'private, no-store',
    });
  });
  app.get(`${base}/:id/export.zip`, requireUser(), async (c) => {
    const { db } = c.var.deps;
    const prepared = await itemExport(db, c.var.user, space, c.req.param('id'), { draft: draftOf(c) });
    if (!prepared) throw notFound('Item not found.');
    await enforce(db, [{ key: `export:item:${c.var.user!.id}`, limit: ITEM_ZIPS_PER_MINUTE, windowSeconds: 60 }]);
    const stream = await itemZip(db, prepared, logFailure(c));
    return c.body(stream, 200, zipHeaders(itemFileName(prepared, 'zip'), 'item.zip'));
  });
  return app;
}

/**
 * GET /api/export?space=knowledge|documents&q=&type=&category=&review= (admins): every item the list's filters name,
 * as a zip of markdown files with front matter and their images, streamed as it is made. A database that fails
 * before the first byte answers 503 (the first page is read before answering); later, the download is cut off.
 */
export function exportApi() {
  const app = new Hono<AppEnv>();
  for (const space of spaces) app.route('/', itemExportApi(space));
  app.get('/api/export', allow('data.export'), validate('query', spaceExportQuery), async (c) => {
    const { db } = c.var.deps;
    const user = c.var.user!;
    const { space, ...filters } = c.req.valid('query');
    const name = `${SPACES[space].path.slice(1)}-${today()}.zip`;
    // HEAD says what a GET would send without making it: no export counted, audited or read.
    if (c.req.method === 'HEAD') return c.body(null, 200, zipHeaders(name, name));
    await enforce(
      db,
      [{ key: `export:space:${user.id}`, limit: SPACE_EXPORTS_PER_HOUR, windowSeconds: 3600 }],
      'Too many exports in the last hour. Please try again later.',
    );
    const stream = await exportSpace(db, user, space, filters, logFailure(c));
    return c.body(stream, 200, zipHeaders(name, name));
  });
  return app;
}
