import { Hono, type Context } from 'hono';
import { renderToString } from 'react-dom/server';
import type { AppEnv } from '../app-env';
import { notFound } from '../http/errors';
import { requirePageUser } from '../http/session';
import { triggerToast } from '../http/toast';
import { Card } from '../ui/components';
import { readState, renderResults, spacePath } from './results';
import type { Space } from './schemas';
import { deleteItem, getItem } from './service';
import { DeleteConfirm, DeleteDialog } from './views/DeleteDialog';
import { listUrl } from './views/urls';

/** A same-app list URL to go back to (anything else falls back to the list itself). */
function safeBack(space: Space, candidate: string | undefined | null): string {
  const path = spacePath(space);
  if (!candidate) return path;
  try {
    const url = new URL(candidate, 'http://app.invalid');
    if (url.origin !== 'http://app.invalid' && !candidate.startsWith('http')) return path;
    if (url.pathname !== path) return path;
    return url.pathname + url.search;
  } catch {
    return path;
  }
}

const deletedText = (space: Space) =>
  space === 'knowledge' ? 'Knowledge base item deleted successfully.' : 'Document deleted successfully.';

/** GET = the confirmation (dialog body for htmx, a page without JS); POST = soft delete, then the list. */
function spaceDeletePages(space: Space) {
  const app = new Hono<AppEnv>();
  const path = spacePath(space);
  app.get(`${path}/:id/delete`, requirePageUser(), async (c) => {
    const item = await getItem(c.var.deps.db, space, c.req.param('id'));
    if (!item) throw notFound('Item not found.');
    const action = `${path}/${item.id}/delete`;
    if (c.req.header('hx-request') === 'true') {
      const back = safeBack(space, c.req.header('hx-current-url'));
      return c.html(renderToString(<DeleteConfirm action={action} title={item.title} back={back} inDialog />));
    }
    const back = safeBack(space, c.req.query('back') ?? c.req.header('referer'));
    return c.render(
      <Card title="Delete item">
        <DeleteConfirm action={action} title={item.title} back={back} inDialog={false} />
      </Card>,
      { title: 'Delete item' },
    );
  });
  app.post(`${path}/:id/delete`, requirePageUser(), async (c) => {
    const body = await c.req.parseBody();
    const back = safeBack(space, typeof body.back === 'string' ? body.back : null);
    await deleteItem(c.var.deps.db, space, c.req.param('id'), c.var.user!.id);
    if (c.req.header('hx-request') === 'true') {
      const state = readState(Object.fromEntries(new URL(back, 'http://x').searchParams), space);
      const { node } = await renderResults(c, space, state);
      triggerToast(c, 'Success', deletedText(space));
      return c.html(
        renderToString(
          <>
            {node}
            <DeleteDialog oob />
          </>,
        ),
      );
    }
    const state = readState(Object.fromEntries(new URL(back, 'http://x').searchParams), space);
    return c.redirect(listUrl(path, state, { deleted: 1 }), 303);
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
