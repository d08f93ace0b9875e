import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { itemServersInput, linkedServersOf, linkItemServers, serversMentionedFor } from '../runbooks/service';
import { itemFor } from './items';
import { withServerLinks } from './linked-servers';
import { readerRevision } from './revisions';
import type { Space } from './schemas';
import { SPACES } from './shared';

/**
 * An item's linked servers (issue 23): GET and PUT /api/{base}/{id}/servers, GET /api/{base}/{id}/server-suggestions.
 */
function itemServersApi(space: Space) {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());
  app.put('/:id/servers', validate('json', itemServersInput), async (c) => {
    const { db } = c.var.deps;
    const item = await itemFor(db, c.var.user, space, c.req.param('id'), 'item.write', SPACES[space].messages.missing);
    await linkItemServers(db, space, item, c.req.valid('json').serverIds, c.var.user!.id);
    return c.json(await withServerLinks(db, item));
  });
  // Their live state, for the category view's preview to refresh (the read page asks its panel's HTML instead).
  app.get('/:id/servers', async (c) => {
    const { db } = c.var.deps;
    const item = await itemFor(db, c.var.user, space, c.req.param('id'), 'item.read', SPACES[space].messages.missing);
    return c.json(await linkedServersOf(db, item.id));
  });
  // The servers the item's text names that are not linked yet (its draft for those who may edit it).
  app.get('/:id/server-suggestions', async (c) => {
    const { db } = c.var.deps;
    const newest = await itemFor(db, c.var.user, space, c.req.param('id'), 'item.read', SPACES[space].messages.missing);
    const item = await readerRevision(db, c.var.user, newest, true);
    const linked = (await linkedServersOf(db, item.id)).map((s) => s.id);
    return c.json(await serversMentionedFor(db, c.var.user!.id, `${item.title}\n${item.content}`, linked));
  });
  return app;
}

/** The server-link routes of both spaces. */
export function serverLinksApi() {
  const app = new Hono<AppEnv>();
  app.route(SPACES.documents.api, itemServersApi('documents'));
  app.route(SPACES.knowledge.api, itemServersApi('knowledge'));
  return app;
}
