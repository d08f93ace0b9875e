import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { requirePageUser } from '../auth/policy';
import { badRequest, notFound } from '../http/errors';
import { readForm } from '../http/form';
import { fragment, isHtmx } from '../http/htmx';
import { SPACES, type Space } from '../knowledge/shared';
import { keepForm } from './schemas';
import { keepItem, offlineStateOf, packOf, teamNamesOf, unkeepItem } from './service';
import { KeepOfflineButton } from './shared/KeepOfflineButton';
import { OfflinePage } from './views/OfflinePage';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The read page's Keep offline form: keep or let go, then the new button (htmx), /offline or the page. */
async function setKept(c: Context<AppEnv>, space: Space) {
  const { db } = c.var.deps;
  const user = c.var.user!;
  const id = c.req.param('id') ?? '';
  if (!UUID.test(id)) throw notFound(SPACES[space].messages.missing);
  const form = await readForm(c, keepForm);
  if (!form.ok) throw badRequest('keep must be "on" or "off".');
  if (form.data.keep === 'on') await keepItem(db, user, id, space);
  else await unkeepItem(db, user.id, id);
  if (form.data.back === 'offline') return c.redirect('/offline', 303);
  if (isHtmx(c)) {
    const state = await offlineStateOf(db, user.id, id);
    return fragment(c, <KeepOfflineButton space={space} id={id} state={state} />);
  }
  return c.redirect(`${SPACES[space].path}/${id}`, 303);
}

/** GET /offline (what the user keeps offline) and POST /{base}/{id}/offline (the read page's Keep offline form). */
export function offlinePages() {
  const app = new Hono<AppEnv>();
  app.get('/offline', requirePageUser(), async (c) => {
    const { db } = c.var.deps;
    const user = c.var.user!;
    const [items, teams] = await Promise.all([packOf(db, user), teamNamesOf(db, user.id)]);
    return c.render(<OfflinePage items={items} teams={teams} timeZone={user.timezone} />, {
      title: 'Offline pack',
      subtitle: 'Runbooks you can read without a connection',
    });
  });
  for (const space of ['knowledge', 'documents'] as const) {
    app.post(`${SPACES[space].path}/:id/offline`, requirePageUser(), (c) => setKept(c, space));
  }
  return app;
}
