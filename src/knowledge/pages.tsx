import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { can, requirePageUser } from '../auth/policy';
import { fragment, isHtmxFor } from '../http/htmx';
import { deletePages } from './delete-pages';
import { deletedPages } from './deleted-pages';
import { readState, renderResults } from './results';
import type { Space } from './schemas';
import { getItem, visibleCategoryCounts } from './service';
import { isKbType, itemHref, SPACES } from './shared';
import { ListPage } from './views/KnowledgePage';
import { listUrl } from './views/urls';

async function listPage(c: Context<AppEnv>, space: Space) {
  const { path, messages, page: heading } = SPACES[space];
  const state = readState(c.req.query(), space);
  // Reached with ?doc= only when the item does not exist (see openDoc).
  const missing = c.req.query('doc') !== undefined;
  c.header('Vary', 'HX-Request, HX-Target');
  // Read once: the category filter's list and, when only a category is chosen, the results' totals.
  const counts = await visibleCategoryCounts(c.var.deps.db, space, c.var.user);
  const node = await renderResults(c, space, state, counts);
  if (isHtmxFor(c, 'kb-results')) return fragment(c, node);
  const deleted = c.req.query('deleted') === '1';
  const cleaned = missing || deleted || c.req.query('autocreate') ? listUrl(path, state) : undefined;
  const notice = deleted
    ? { variant: 'success' as const, text: messages.deleted }
    : missing
      ? { variant: 'error' as const, text: messages.missing }
      : undefined;
  const page = (
    <ListPage
      space={space}
      state={state}
      categories={counts.map((r) => r.name).filter(Boolean)}
      results={node}
      autoCreateOpen={c.req.query('autocreate') === 'true'}
      notice={notice}
      replaceUrl={cleaned}
      admin={can(c.var.user, 'knowledge.restore')}
      canWrite={can(c.var.user, 'content.write')}
      canImport={can(c.var.user, 'data.import')}
    />
  );
  return c.render(page, { title: heading.title, subtitle: heading.subtitle });
}

/** The spec's deep link ?doc={id}: the item's own page, so the address goes on naming it (null: no such item). */
async function openDoc(c: Context<AppEnv>, space: Space): Promise<Response | null> {
  const doc = c.req.query('doc');
  const item = doc ? await getItem(c.var.deps.db, space, doc, { viewer: c.var.user }) : null;
  return item ? c.redirect(itemHref(space, item.id, item.title), 302) : null;
}

/** /knowledge-base and /documents (+ their delete confirmations). */
export function knowledgePages() {
  const app = new Hono<AppEnv>();
  app.get('/knowledge-base', requirePageUser(), async (c) => {
    const create = c.req.query('create');
    if (isKbType(create)) return c.redirect(`/knowledge-base/new?type=${create}`, 302);
    return (await openDoc(c, 'knowledge')) ?? listPage(c, 'knowledge');
  });
  app.get('/documents', requirePageUser(), async (c) => (await openDoc(c, 'documents')) ?? listPage(c, 'documents'));
  app.route('/', deletePages());
  app.route('/', deletedPages());
  return app;
}
