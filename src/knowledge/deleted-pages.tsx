import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage } from '../auth/policy';
import { DELETED_ROWS, listDeleted, undeleteItem } from './deleted';
import type { Space } from './schemas';
import { getItem } from './service';
import { itemHref, SPACES } from './shared';
import { DeletedPage } from './views/DeletedPage';

/** GET {path}/deleted (the list), POST {path}/{id}/undelete (restore, then the list saying so). */
function spaceDeletedPages(space: Space) {
  const app = new Hono<AppEnv>();
  const { path, page } = SPACES[space];
  app.get(`${path}/deleted`, allowPage('knowledge.restore'), async (c) => {
    const { db } = c.var.deps;
    const restoredId = c.req.query('restored');
    const restored = restoredId ? await getItem(db, space, restoredId, { viewer: c.var.user }) : null;
    return c.render(
      <DeletedPage
        path={path}
        items={await listDeleted(db, space, c.var.user)}
        limit={DELETED_ROWS}
        timeZone={c.var.user!.timezone}
        now={new Date()}
        restored={restored ? { title: restored.title, href: itemHref(space, restored.id, restored.title) } : undefined}
      />,
      { title: page.deletedTitle, subtitle: 'Restore items that were deleted' },
    );
  });
  app.post(`${path}/:id/undelete`, allowPage('knowledge.restore'), async (c) => {
    const item = await undeleteItem(c.var.deps.db, space, c.req.param('id'), c.var.user);
    return c.redirect(`${path}/deleted?restored=${item.id}`, 303);
  });
  return app;
}

/** The admins' Deleted items screens of both spaces. */
export function deletedPages() {
  const app = new Hono<AppEnv>();
  app.route('/', spaceDeletedPages('knowledge'));
  app.route('/', spaceDeletedPages('documents'));
  return app;
}
