import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { can } from '../auth/policy';
import type { Db } from '../db/client';
import { reviewFlagsOfMany } from '../runbooks/service';
import { listQuery, type Item, type Space } from './schemas';
import { categoryCounts, countItems, listItems, listTitles, type CategoryCount } from './service';
import { SPACES } from './shared';
import { buildGroups, CategoryPane } from './views/CategoryPane';
import { EMPTY_STATES, Results } from './views/Results';
import { isFiltering, type ListState } from './views/urls';

/** Grid and list pages show this many items first ("Show more" adds 60). */
export const PAGE_SIZE = 60;

/**
 * Loads and renders the results part of a list page for a state (the htmx fragment, also inside the full page);
 * `counts` are the reader's visibleCategoryCounts when the page has read them already.
 */
export async function renderResults(c: Context<AppEnv>, space: Space, state: ListState, counts?: CategoryCount[]) {
  const { db, assets } = c.var.deps;
  const { path, hasKinds } = SPACES[space];
  const now = new Date();
  // readState keeps type and view only for a space with kinds.
  const filters = { q: state.q, type: state.type, category: state.category, review: state.review, viewer: c.var.user };
  const canWrite = can(c.var.user, 'content.write');
  // A list does not look up the reader's shares: an item shared with them for writing shows no delete here.
  const canEdit = (item: Item) => can(c.var.user, 'item.write', { ...item, share: null });
  // Admins export what the filters show (issue 25): swapped with the results, so it always carries the current ones.
  const exportHref = can(c.var.user, 'data.export') ? exportUrl(space, state) : undefined;
  const Empty = EMPTY_STATES[space];
  const empty = <Empty filtering={isFiltering(state)} canWrite={canWrite} />;
  if (state.view === 'category') {
    const [titles, perCategory] = await Promise.all([
      listTitles(db, space, { ...filters, limit: 600 }),
      categoryCounts(db, space, filters, counts),
    ]);
    // Nothing to show: the screen's empty state (spec texts), not an empty tree.
    const category = titles.length ? (
      <CategoryPane
        assets={assets}
        groups={buildGroups(titles, perCategory)}
        now={now}
        canRestore={can(c.var.user, 'knowledge.restore')}
        canWrite={canWrite}
        timeZone={c.var.user?.timezone ?? 'UTC'}
        serversPollMs={c.var.deps.config.serversPanelPollMs}
      />
    ) : undefined;
    return (
      <Results
        path={path}
        state={state}
        items={[]}
        total={titles.length}
        now={now}
        empty={empty}
        category={category}
        showType
        canWrite={canWrite}
        canEdit={canEdit}
        exportHref={exportHref}
      />
    );
  }
  const limit = Math.min(state.limit ?? PAGE_SIZE, 1000);
  const [listed, total] = await Promise.all([
    listItems(db, space, { ...filters, limit, summary: true }),
    countItems(db, space, filters, counts),
  ]);
  const items = await withReviewFlags(db, listed);
  return (
    <Results
      path={path}
      state={state}
      items={items}
      total={total}
      now={now}
      empty={empty}
      showType={hasKinds}
      canWrite={canWrite}
      canEdit={canEdit}
      exportHref={exportHref}
    />
  );
}

/** The items with their review flags (one query), so a card says "Server changed". */
async function withReviewFlags(db: Db, items: Item[]): Promise<Item[]> {
  const flags = await reviewFlagsOfMany(
    db,
    items.map((i) => i.id),
  );
  return items.map((i) => ({ ...i, reviewFlags: flags.get(i.id) ?? [] }));
}

/** The list state from query parameters (bad values are ignored, never an error page). */
export function readState(query: Record<string, string>, space: Space): ListState {
  const parsed = listQuery.parse(query);
  const limit = Number(query.limit);
  const { hasKinds } = SPACES[space];
  return {
    q: parsed.q || undefined,
    type: hasKinds ? parsed.type : undefined,
    category: parsed.category || undefined,
    view: hasKinds ? parsed.view : undefined,
    review: parsed.review,
    limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, 1000) : undefined,
  };
}

/** The whole-space export of a list state (GET /api/export, src/exports): the list's filters, not its view. */
function exportUrl(space: Space, s: ListState): string {
  const params = new URLSearchParams({ space });
  for (const [k, v] of Object.entries({ q: s.q, type: s.type, category: s.category, review: s.review }))
    if (v) params.set(k, v);
  return `/api/export?${params}`;
}
