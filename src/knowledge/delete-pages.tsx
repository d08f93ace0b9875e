import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { can, requirePageUser } from '../auth/policy';
import { formValues } from '../http/form';
import { fragment, isHtmx, isHtmxFor } from '../http/htmx';
import { triggerToast } from '../http/toast';
import { readState, renderResults } from './results';
import type { Space } from './schemas';
import { itemFor } from './items';
import { deleteItem } from './service';
import { SPACES } from './shared';
import { DELETE_DIALOG_ID, DeleteConfirm, DeleteConfirmPage } from './views/DeleteDialog';
import { listUrl, listUrlIn } from './views/urls';

/** A same-app list URL to go back to (anything else falls back to the list itself). */
const safeBack = (space: Space, candidate: string | undefined | null) =>
  listUrlIn(SPACES[space].path, candidate) ?? SPACES[space].path;

/** True when a (same-app) URL is the space's list screen. */
const isListUrl = (space: Space, url: string | undefined) => listUrlIn(SPACES[space].path, url) !== undefined;

/** The list state a back URL names. */
const backState = (space: Space, back: string) =>
  readState(Object.fromEntries(new URL(back, 'http://x').searchParams), space);

/** GET = the confirmation (the dialog's content for htmx, a page without JS); POST = soft delete, then the list. */
function spaceDeletePages(space: Space) {
  const app = new Hono<AppEnv>();
  const { path, messages } = SPACES[space];
  app.get(`${path}/:id/delete`, requirePageUser(), async (c) => {
    const item = await itemFor(c.var.deps.db, c.var.user, space, c.req.param('id'), 'item.write');
    const action = `${path}/${item.id}/delete`;
    const canRestore = can(c.var.user, 'knowledge.restore');
    if (isHtmxFor(c, DELETE_DIALOG_ID)) {
      const current = c.req.header('HX-Current-URL');
      const inList = isListUrl(space, current);
      // From an item's page, back is the list its breadcrumb names.
      const back = safeBack(space, inList ? current : c.req.query('back'));
      return fragment(
        c,
        <DeleteConfirm action={action} title={item.title} back={back} canRestore={canRestore} inList={inList} />,
      );
    }
    const back = safeBack(space, c.req.query('back') ?? c.req.header('referer'));
    return c.render(<DeleteConfirmPage action={action} title={item.title} back={back} canRestore={canRestore} />, {
      title: 'Delete item',
    });
  });
  app.post(`${path}/:id/delete`, requirePageUser(), async (c) => {
    // The one field is a URL to go back to, checked by safeBack (anything else is the list itself).
    const back = safeBack(space, (await formValues(c)).back);
    await itemFor(c.var.deps.db, c.var.user, space, c.req.param('id'), 'item.write');
    await deleteItem(c.var.deps.db, space, c.req.param('id'), c.var.user!.id);
    const state = backState(space, back);
    if (!isHtmx(c)) return c.redirect(listUrl(path, state, { deleted: 1 }), 303);
    triggerToast(c, 'Success', messages.deleted);
    // The results hold the delete dialog: swapping them in closes it.
    return fragment(c, await renderResults(c, space, state));
  });
  return app;
}

/** Delete confirmations and deletes for both list screens. */
export function deletePages() {
  const app = new Hono<AppEnv>();
  app.route('/', spaceDeletePages('knowledge'));
  app.route('/', spaceDeletePages('documents'));
  return app;
}
