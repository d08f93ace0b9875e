import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { requirePageUser, requireUser } from '../auth/policy';
import { readForm } from '../http/form';
import { fragment, isHtmx } from '../http/htmx';
import { badRequest } from '../http/errors';
import { itemFor } from './items';
import { SPACES, type Space } from './shared';
import { WatchButton } from './views/WatchButton';
import { unwatchItem, watchItem } from './watchers';

const watchForm = z.object({ watch: z.enum(['on', 'off'], { error: 'watch must be "on" or "off".' }) });

/** Starts or stops the user watching the item named by :id (404 when they may not read it). */
async function setWatching(c: Context<AppEnv>, space: Space, watching: boolean) {
  const { db } = c.var.deps;
  const user = c.var.user!;
  const item = await itemFor(db, user, space, c.req.param('id') ?? '', 'item.read');
  await (watching ? watchItem : unwatchItem)(db, item.id, user.id);
  return item;
}

/**
 * PUT|DELETE /api/{base}/{id}/watch → { watching }, and POST /{base}/{id}/watch, the read page's Watch / Unwatch
 * form (the new button to htmx, back to the page otherwise). Readers may watch what they may read.
 */
export function watchRoutes() {
  const app = new Hono<AppEnv>();
  for (const space of ['knowledge', 'documents'] as const) {
    const { api, path } = SPACES[space];
    app.put(`${api}/:id/watch`, requireUser(), async (c) => {
      await setWatching(c, space, true);
      return c.json({ watching: true });
    });
    app.delete(`${api}/:id/watch`, requireUser(), async (c) => {
      await setWatching(c, space, false);
      return c.json({ watching: false });
    });
    app.post(`${path}/:id/watch`, requirePageUser(), async (c) => {
      const form = await readForm(c, watchForm);
      if (!form.ok) throw badRequest('watch must be "on" or "off".');
      const watching = form.data.watch === 'on';
      const item = await setWatching(c, space, watching);
      if (isHtmx(c)) return fragment(c, <WatchButton space={space} id={item.id} watching={watching} />);
      return c.redirect(`${path}/${item.id}`, 303);
    });
  }
  return app;
}
