import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { can, requirePageUser } from '../auth/policy';
import { fragment, isHtmxFor } from '../http/htmx';
import { deletePages } from './delete-pages';
import { deletedPages } from './deleted-pages';
import { readState, renderResults } from './results';
import type { Space } from './schemas';
import { getItem, listCategories } from './service';
import { isKbType, SPACES } from './shared';
import { ListPage } from './views/KnowledgePage';
import { listUrl } from './views/urls';

async function listPage(c: Context<AppEnv>, space: Space) {
  const { path, hasKinds, messages, page: heading } = SPACES[space];
  const state = readState(c.req.query(), space);
  const doc = c.req.query('doc');
  // A knowledge item opens in the category view's preview; a document has no preview (see /documents).
  if (doc && hasKinds) state.view = 'category';
  c.header('Vary', 'HX-Request, HX-Target');
  const { node, found } = await renderResults(c, space, state, hasKinds ? doc : undefined);
  if (isHtmxFor(c, 'kb-results')) return fragment(c, node);
  const deleted = c.req.query('deleted') === '1';
  const cleaned = doc || deleted || c.req.query('autocreate') ? listUrl(path, state) : undefined;
  const notice = deleted
    ? { variant: 'success' as const, text: messages.deleted }
    : doc && !found
      ? { variant: 'error' as const, text: messages.missing }
      : undefined;
  const page = (
    <ListPage
      space={space}
      state={state}
      categories={await listCategories(c.var.deps.db, space)}
      results={node}
      autoCreateOpen={c.req.query('autocreate') === 'true'}
      notice={notice}
      replaceUrl={cleaned}
      admin={can(c.var.user, 'knowledge.restore')}
    />
  );
  return c.render(page, { title: heading.title, subtitle: heading.subtitle });
}

/** /knowledge-base and /documents (+ their delete confirmations). */
export function knowledgePages() {
  const app = new Hono<AppEnv>();
  app.get('/knowledge-base', requirePageUser(), async (c) => {
    const create = c.req.query('create');
    if (isKbType(create)) return c.redirect(`/knowledge-base/new?type=${create}`, 302);
    return listPage(c, 'knowledge');
  });
  // ?doc={id} (search results, assistant links): a document opens in its editor, where it is read and edited.
  app.get('/documents', requirePageUser(), async (c) => {
    const doc = c.req.query('doc');
    if (doc && (await getItem(c.var.deps.db, 'documents', doc))) return c.redirect(`/documents/${doc}/edit`, 302);
    return listPage(c, 'documents');
  });
  app.route('/', deletePages());
  app.route('/', deletedPages());
  return app;
}
