import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { requirePageUser } from '../auth/policy';
import { AppError } from '../http/errors';
import { readForm } from '../http/form';
import { fragment, isHtmx } from '../http/htmx';
import { triggerToast } from '../http/toast';
import type { Item } from '../knowledge/schemas';
import { itemHref, SPACES, type Space } from '../knowledge/shared';
import { commentableItem, commentFor } from './access';
import { createComment, deleteComment, editComment, setResolved } from './commands';
import { editCommentInput, newCommentForm } from './schemas';
import { listThreads } from './service';
import { CommentsSection, type CommentsSectionProps } from './shared/CommentsSection';
import { commentAnchor } from './shared';
import { CommentsPage } from './views/CommentsPage';

/**
 * The comment forms of an item's page (POST {path}/{id}/comments, POST /comments/{id}/edit|delete|resolve|reopen)
 * and the threads alone (GET {path}/{id}/comments). htmx gets the section back; a plain form goes back to the
 * item's page at the comment.
 */

const ID = ':id{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}';

type Extra = Pick<CommentsSectionProps, 'error' | 'values'>;

/** The section for this reader: htmx swaps it in; otherwise the comments page (422 with an error). */
async function answer(c: Context<AppEnv>, space: Space, item: Item, extra: Extra = {}) {
  const { db, assets } = c.var.deps;
  const user = c.var.user!;
  const props: CommentsSectionProps = {
    itemPath: `${SPACES[space].path}/${item.id}`,
    threads: await listThreads(db, user, item),
    timeZone: user.timezone,
    script: assets.scripts?.comments,
    ...extra,
  };
  if (isHtmx(c)) {
    if (extra.error) triggerToast(c, 'Comment not saved', extra.error, 'error');
    return fragment(c, <CommentsSection {...props} />);
  }
  if (extra.error) c.status(422);
  const page = <CommentsPage itemHref={itemHref(space, item.id, item.title)} title={item.title} section={props} />;
  return c.render(page, { title: `Comments on ${item.title}`, section: SPACES[space].page.title });
}

/** After a change: htmx gets the section, a plain form the item's page at `anchor`. */
async function done(c: Context<AppEnv>, space: Space, item: Item, anchor: string) {
  if (isHtmx(c)) return answer(c, space, item);
  return c.redirect(`${itemHref(space, item.id, item.title)}#${anchor}`, 303);
}

/** A refusal the user can fix (empty, too long, a bad parent) goes back with the form; anything else is thrown. */
const fixable = (err: unknown): err is AppError => err instanceof AppError && err.status === 400;

function itemPages(space: Space) {
  const app = new Hono<AppEnv>();
  const { path } = SPACES[space];
  app.get(`${path}/${ID}/comments`, requirePageUser(), async (c) => {
    const item = await commentableItem(c.var.deps.db, c.var.user, space, c.req.param('id'));
    return answer(c, space, item);
  });
  app.post(`${path}/${ID}/comments`, requirePageUser(), async (c) => {
    const { db } = c.var.deps;
    const item = await commentableItem(db, c.var.user, space, c.req.param('id'));
    const form = await readForm(c, newCommentForm);
    const values = { body: form.values.body, quote: form.values.quote };
    if (!form.ok) return answer(c, space, item, { error: Object.values(form.errors)[0], values });
    try {
      const id = await createComment(db, space, item, c.var.user!, form.data);
      return done(c, space, item, commentAnchor(id));
    } catch (err) {
      if (fixable(err)) return answer(c, space, item, { error: err.message, values });
      throw err;
    }
  });
  return app;
}

type CommentAction = 'edit' | 'delete' | 'resolve' | 'reopen';

/** One change to one comment, by its id. */
async function change(c: Context<AppEnv>, action: CommentAction) {
  const { db } = c.var.deps;
  const user = c.var.user!;
  const id = c.req.param('id') ?? '';
  const { item, space } = await commentFor(db, user, id);
  if (action === 'delete') {
    await deleteComment(db, space, item, user, id);
    return done(c, space, item, 'comments');
  }
  if (action === 'edit') {
    const form = await readForm(c, editCommentInput);
    if (!form.ok) return answer(c, space, item, { error: Object.values(form.errors)[0] });
    await editComment(db, space, item, user, id, form.data.body);
  } else await setResolved(db, space, item, user, id, action === 'resolve');
  return done(c, space, item, commentAnchor(id));
}

/** POST /comments/{id}/edit|delete|resolve|reopen */
function commentPages() {
  const app = new Hono<AppEnv>();
  for (const action of ['edit', 'delete', 'resolve', 'reopen'] as const)
    app.post(`/comments/${ID}/${action}`, requirePageUser(), (c) => change(c, action));
  return app;
}

/** Every comment page route. */
export function commentPagesRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/', itemPages('knowledge'));
  app.route('/', itemPages('documents'));
  app.route('/', commentPages());
  return app;
}
