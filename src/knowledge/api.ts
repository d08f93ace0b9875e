import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { badRequest, notFound } from '../http/errors';
import { allow, can, requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { renderMarkdown } from '../markdown/render';
import { fillServerPlaceholders } from '../runbooks/service';
import { mayItem } from './item-access';
import { itemFor } from './items';
import { withServerLinks, withServerLinksMany } from './linked-servers';
import { readerRevision } from './revisions';
import { documentInput, kbTypes, type Space } from './schemas';
import {
  createItem,
  deleteItem,
  getItem,
  listItems,
  listVersions,
  recentKnowledge,
  restoreVersion,
  updateItem,
} from './service';
import { SPACES } from './shared';

const listFilters = z.object({
  q: z.string().max(200).optional(),
  type: z.enum(kbTypes).optional(),
  category: z.string().max(100).optional(),
  review: z.enum(['overdue', 'flagged'], { error: 'review must be "overdue" or "flagged".' }).optional(),
  limit: z.coerce.number().int().min(1).max(5000).optional(),
});
const recentQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int()
    .min(1, 'limit must be between 1 and 50.')
    .max(50, 'limit must be between 1 and 50.')
    .default(5),
});
const restoreBody = z.object({ version: z.number().int().positive().optional() });

/** Optional JSON body of a restore ({version}); an empty body is fine. */
async function readRestoreBody(c: Context<AppEnv>) {
  const text = await c.req.text();
  if (!text.trim()) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
  return restoreBody.parse(json);
}

/** Goes on only when the user may edit the item named by :id (404 when they may not read it, else 403). */
const writable =
  (space: Space): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await itemFor(c.var.deps.db, c.var.user, space, c.req.param('id') ?? '', 'item.write');
    await next();
  };

/** The JSON routes of one space under its base path (spec §7). */
function spaceApi(space: Space) {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());
  app.get('/', validate('query', listFilters), async (c) =>
    c.json(
      await withServerLinksMany(
        c.var.deps.db,
        await listItems(c.var.deps.db, space, { ...c.req.valid('query'), viewer: c.var.user }),
      ),
    ),
  );
  app.post('/', allow('content.write'), validate('json', documentInput), async (c) => {
    const { db } = c.var.deps;
    return c.json(await withServerLinks(db, await createItem(db, space, c.req.valid('json'), c.var.user!.id)), 201);
  });
  app.get('/:id', async (c) => {
    const { db } = c.var.deps;
    const user = c.var.user;
    const newest = await getItem(db, space, c.req.param('id'), { viewer: user });
    if (!newest) throw notFound('Item not found.');
    const item = await withServerLinks(db, await readerRevision(db, user, newest, c.req.query('revision') === 'draft'));
    if (c.req.query('include') !== 'html') return c.json(item);
    const filled = await fillServerPlaceholders(db, item.content, user?.timezone);
    return c.json({
      ...item,
      html: renderMarkdown(filled.markdown, filled.fill),
      canWrite: await mayItem(db, user, item, 'item.write'),
      canShare: can(user, 'item.share', item),
    });
  });
  app.put('/:id', writable(space), validate('json', documentInput), async (c) => {
    const { db } = c.var.deps;
    return c.json(
      await withServerLinks(db, await updateItem(db, space, c.req.param('id'), c.req.valid('json'), c.var.user!.id)),
    );
  });
  app.delete('/:id', writable(space), async (c) => {
    await deleteItem(c.var.deps.db, space, c.req.param('id'), c.var.user!.id);
    return c.json({ message: SPACES[space].messages.deleted });
  });
  app.get('/:id/versions', async (c) =>
    c.json(await listVersions(c.var.deps.db, space, c.req.param('id'), c.var.user)),
  );
  app.post('/:id/restore/:versionId', async (c) => {
    const { version } = await readRestoreBody(c);
    const { id, versionId } = c.req.param();
    const { db } = c.var.deps;
    return c.json(await withServerLinks(db, await restoreVersion(db, space, id, versionId, c.var.user, { version })));
  });
  return app;
}

/** /api/documents, /api/knowledge-base (+ /recent). */
export function knowledgeApi() {
  const app = new Hono<AppEnv>();
  app.get('/api/knowledge-base/recent', requireUser(), validate('query', recentQuery), async (c) =>
    c.json(await recentKnowledge(c.var.deps.db, c.req.valid('query').limit, c.var.user)),
  );
  app.route(SPACES.documents.api, spaceApi('documents'));
  app.route(SPACES.knowledge.api, spaceApi('knowledge'));
  return app;
}
