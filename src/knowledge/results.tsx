import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { renderMarkdown } from '../markdown/render';
import { linkedServers } from './linked-servers';
import { listQuery, type Space } from './schemas';
import { categoryCounts, countItems, getItem, listItems, listTitles } from './service';
import { buildGroups, CategoryPane } from './views/CategoryPane';
import { DocumentsEmpty, KnowledgeEmpty, Results } from './views/Results';
import { isFiltering, listUrl, type ListState } from './views/urls';

/** Grid and list pages show this many items first ("Show more" adds 60). */
export const PAGE_SIZE = 60;

/** The list screen of a space. */
export const spacePath = (space: Space) => (space === 'knowledge' ? '/knowledge-base' : '/documents');

/** The item opened by a deep link, with its rendered content and linked servers. */
async function loadSelected(c: Context<AppEnv>, docId: string) {
  const { db } = c.var.deps;
  const item = await getItem(db, 'knowledge', docId);
  if (!item) return null;
  return { ...item, html: renderMarkdown(item.content), servers: await linkedServers(db, item.id) };
}

/** Loads and renders the results part of a list page for a state (the htmx fragment, also inside the full page). */
export async function renderResults(c: Context<AppEnv>, space: Space, state: ListState, docId?: string) {
  const { db, assets } = c.var.deps;
  const path = spacePath(space);
  const now = new Date();
  const filters = { q: state.q, type: space === 'knowledge' ? state.type : undefined, category: state.category };
  const empty =
    space === 'knowledge' ? (
      <KnowledgeEmpty filtering={isFiltering(state)} />
    ) : (
      <DocumentsEmpty filtering={isFiltering(state)} />
    );
  if (space === 'knowledge' && state.view === 'category') {
    const [titles, counts, selected] = await Promise.all([
      listTitles(db, space, { ...filters, limit: 600 }),
      categoryCounts(db, space, filters),
      docId ? loadSelected(c, docId) : null,
    ]);
    const query = new URL(listUrl(path, { ...state, limit: undefined }), 'http://x').searchParams.toString();
    // Nothing to show: the screen's empty state (spec texts), not an empty tree.
    const category =
      titles.length || selected ? (
        <CategoryPane
          assets={assets}
          groups={buildGroups(titles, counts, selected)}
          selected={selected}
          now={now}
          query={query}
        />
      ) : undefined;
    return {
      found: !!selected,
      node: (
        <Results
          path={path}
          state={state}
          items={[]}
          total={titles.length}
          now={now}
          empty={empty}
          category={category}
          showType
        />
      ),
    };
  }
  const limit = Math.min(state.limit ?? PAGE_SIZE, 1000);
  const [items, total] = await Promise.all([
    listItems(db, space, { ...filters, limit, summary: true }),
    countItems(db, space, filters),
  ]);
  return {
    found: false,
    node: (
      <Results
        path={path}
        state={state}
        items={items}
        total={total}
        now={now}
        empty={empty}
        showType={space === 'knowledge'}
      />
    ),
  };
}

/** True for an htmx request that wants only the results (not a history restore, which needs the page). */
export const wantsResults = (c: Context<AppEnv>) =>
  c.req.header('hx-request') === 'true' &&
  !c.req.header('hx-history-restore-request') &&
  c.req.header('hx-target') === 'kb-results';

/** The list state from query parameters (bad values are ignored, never an error page). */
export function readState(query: Record<string, string>, space: Space): ListState {
  const parsed = listQuery.parse(query);
  const limit = Number(query.limit);
  return {
    q: parsed.q || undefined,
    type: space === 'knowledge' ? parsed.type : undefined,
    category: parsed.category || undefined,
    view: space === 'knowledge' ? parsed.view : undefined,
    limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, 1000) : undefined,
  };
}
