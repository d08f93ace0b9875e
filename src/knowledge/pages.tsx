import { Hono, type Context } from 'hono';
import { renderToString } from 'react-dom/server';
import type { AppEnv } from '../app-env';
import { can } from '../auth/policy';
import { requirePageUser } from '../http/session';
import { readState, renderResults, spacePath, wantsResults } from './results';
import type { Space } from './schemas';
import { deletePages } from './delete-pages';
import { deletedPages } from './deleted-pages';
import { getItem, listCategories } from './service';
import { ListPage } from './views/KnowledgePage';
import { listUrl } from './views/urls';

const CREATE_TYPES = new Set(['knowledge-base', 'work-instruction', 'how-to-guide', 'build-document']);

const MISSING = {
  knowledge: 'That knowledge base item does not exist or was deleted.',
  documents: 'That document does not exist or was deleted.',
} as const;

async function listPage(c: Context<AppEnv>, space: Space) {
  const path = spacePath(space);
  const state = readState(c.req.query(), space);
  const doc = c.req.query('doc');
  // A knowledge item opens in the category view's preview; a document has no preview (see /documents).
  if (doc && space === 'knowledge') state.view = 'category';
  c.header('Vary', 'HX-Request, HX-Target');
  const { node, found } = await renderResults(c, space, state, space === 'knowledge' ? doc : undefined);
  if (wantsResults(c)) return c.html(renderToString(node));
  const deleted = c.req.query('deleted') === '1';
  const cleaned = doc || deleted || c.req.query('autocreate') ? listUrl(path, state) : undefined;
  const notice = deleted
    ? {
        variant: 'success' as const,
        text: space === 'knowledge' ? 'Knowledge base item deleted successfully.' : 'Document deleted successfully.',
      }
    : doc && !found
      ? { variant: 'error' as const, text: MISSING[space] }
      : undefined;
  const page = (
    <ListPage
      path={path}
      state={state}
      categories={await listCategories(c.var.deps.db, space)}
      results={node}
      knowledge={space === 'knowledge'}
      autoCreateOpen={c.req.query('autocreate') === 'true'}
      notice={notice}
      replaceUrl={cleaned}
      admin={can(c.var.user, 'knowledge.restore')}
    />
  );
  return space === 'knowledge'
    ? c.render(page, {
        title: 'Knowledge Base',
        subtitle: 'Manage your knowledge base, work instructions, and templates',
      })
    : c.render(page, { title: 'Documents', subtitle: 'Manage your documentation and templates' });
}

/** /knowledge-base and /documents (+ their delete confirmations). */
export function knowledgePages() {
  const app = new Hono<AppEnv>();
  app.get('/knowledge-base', requirePageUser(), async (c) => {
    const create = c.req.query('create');
    if (create && CREATE_TYPES.has(create)) return c.redirect(`/knowledge-base/new?type=${create}`, 302);
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
