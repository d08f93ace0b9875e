import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { SPACES, type Space } from '../knowledge/shared';
import { commentableItem, commentFor } from './access';
import { createComment, deleteComment, editComment, setResolved } from './commands';
import { editCommentInput, newCommentInput } from './schemas';
import { getComment, listComments } from './service';

/**
 * The comments API (issue 22): GET|POST /api/{base}/{id}/comments, PUT|DELETE /api/comments/{id},
 * POST /api/comments/{id}/resolve and /reopen. Whoever may read the item comments (viewers too); 404 for anyone who
 * may not read it, whichever route names it.
 */

const user = (c: Context<AppEnv>) => c.var.user!;

function itemCommentsApi(space: Space) {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());
  app.get('/:id/comments', async (c) => {
    const { db } = c.var.deps;
    const item = await commentableItem(db, c.var.user, space, c.req.param('id'));
    return c.json(await listComments(db, c.var.user, item));
  });
  app.post('/:id/comments', validate('json', newCommentInput), async (c) => {
    const { db } = c.var.deps;
    const item = await commentableItem(db, c.var.user, space, c.req.param('id'));
    const id = await createComment(db, space, item, user(c), c.req.valid('json'));
    return c.json(await getComment(db, c.var.user, item, id), 201);
  });
  return app;
}

function commentApi() {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());
  app.put('/:id', validate('json', editCommentInput), async (c) => {
    const { db } = c.var.deps;
    const { item, space } = await commentFor(db, c.var.user, c.req.param('id'));
    await editComment(db, space, item, user(c), c.req.param('id'), c.req.valid('json').body);
    return c.json(await getComment(db, c.var.user, item, c.req.param('id')));
  });
  app.delete('/:id', async (c) => {
    const { db } = c.var.deps;
    const { item, space } = await commentFor(db, c.var.user, c.req.param('id'));
    await deleteComment(db, space, item, user(c), c.req.param('id'));
    return c.json({ message: 'Comment deleted.' });
  });
  for (const [action, resolved] of [
    ['resolve', true],
    ['reopen', false],
  ] as const) {
    app.post(`/:id/${action}`, async (c) => {
      const { db } = c.var.deps;
      const { item, space } = await commentFor(db, c.var.user, c.req.param('id'));
      await setResolved(db, space, item, user(c), c.req.param('id'), resolved);
      return c.json(await getComment(db, c.var.user, item, c.req.param('id')));
    });
  }
  return app;
}

/** Every comment JSON route. */
export function commentsApi() {
  const app = new Hono<AppEnv>();
  app.route(`${SPACES.documents.api}`, itemCommentsApi('documents'));
  app.route(`${SPACES.knowledge.api}`, itemCommentsApi('knowledge'));
  app.route('/api/comments', commentApi());
  return app;
}
