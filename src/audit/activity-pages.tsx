import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { can, requirePageUser } from '../auth/policy';
import { badRequest, notFound } from '../http/errors';
import { getItem } from '../knowledge/service';
import { itemHref, SPACES, type Space } from '../knowledge/shared';
import { getServer, isUuid } from '../servers/service';
import { listEntityEvents } from './query';
import { activityQuery } from './schemas';
import { ActivityPage } from './views/ActivityPage';

/** A uuid in a route pattern (as the item read pages use it). */
const ID = ':id{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}';

/** Reads the page's cursor (a bad one is 400) and renders the entity's events. */
async function renderActivity(
  c: Context<AppEnv>,
  entity: { type: string; id: string },
  subject: { name: string; href: string },
  section: string,
) {
  const parsed = activityQuery.safeParse(c.req.query());
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'cursor is not valid.');
  const user = c.var.user!;
  const { cursor } = parsed.data;
  const page = await listEntityEvents(c.var.deps.db, entity, cursor, user.timezone);
  const props = { ...page, subject, paged: !!cursor, showDetails: can(user, 'audit.read'), timeZone: user.timezone };
  return c.render(<ActivityPage {...props} path={c.req.path} />, { title: `Activity: ${subject.name}`, section });
}

/**
 * GET /knowledge-base/{id}/activity, /documents/{id}/activity: the item's audit events for anyone who may read the
 * item (404 otherwise, like the item); GET /infrastructure/{id}/activity: a server's, for anyone signed in. Only
 * admins and auditors see the events' details. Mounted before the read pages, whose /{id}/{slug} would answer.
 */
export function activityPages() {
  const app = new Hono<AppEnv>();
  for (const space of ['knowledge', 'documents'] as const satisfies Space[]) {
    const info = SPACES[space];
    app.get(`${info.path}/${ID}/activity`, requirePageUser(), async (c) => {
      const item = await getItem(c.var.deps.db, space, c.req.param('id'), { viewer: c.var.user });
      if (!item) throw notFound(info.messages.missing);
      const subject = { name: item.title, href: itemHref(space, item.id, item.title) };
      return renderActivity(c, { type: info.audit.entityType, id: item.id }, subject, info.page.title);
    });
  }
  app.get('/infrastructure/:id/activity', requirePageUser(), async (c) => {
    const id = c.req.param('id');
    const server = isUuid(id) ? await getServer(c.var.deps.db, id) : null;
    if (!server) throw notFound('Server not found.');
    const subject = { name: server.name, href: `/infrastructure/${server.id}` };
    return renderActivity(c, { type: 'server', id: server.id }, subject, 'Infrastructure');
  });
  return app;
}
