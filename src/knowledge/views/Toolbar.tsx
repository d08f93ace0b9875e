import { Icon } from '../../ui/icons';
import { views, type ViewMode } from '../schemas';
import { ITEM_TYPES, kbTypes } from '../shared';
import { ReviewFilter } from './ReviewFilter';
import type { ListState } from './urls';

const viewLabels: Record<ViewMode, { label: string; icon: string }> = {
  grid: { label: 'Grid view', icon: 'layout-grid' },
  list: { label: 'List view', icon: 'layout-list' },
  category: { label: 'Category view', icon: 'folder' },
};

export interface ToolbarProps {
  path: string;
  state: ListState;
  categories: string[];
  /** Knowledge base: type filter and view modes; documents: search and category only. */
  withTypeAndViews?: boolean;
  searchLabel: string;
}

/**
 * The filters as a GET form (every state is a URL). With htmx, typing or changing a filter swaps only
 * #kb-results and pushes the URL; without JavaScript the Apply button submits the same form.
 */
export function Toolbar({ path, state, categories, withTypeAndViews, searchLabel }: ToolbarProps) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the form is the search landmark; <search> adds a box
    <form
      className="toolbar kb-toolbar"
      role="search"
      method="get"
      action={path}
      hx-get={path}
      hx-target="#kb-results"
      hx-push-url="true"
      hx-indicator="#kb-results"
      hx-sync="this:replace"
      hx-trigger="submit, input changed delay:300ms from:#kb-q, search from:#kb-q, change from:.kb-filter"
    >
      <label className="visually-hidden" htmlFor="kb-q">
        {searchLabel}
      </label>
      <input
        id="kb-q"
        className="input"
        type="search"
        name="q"
        placeholder={`${searchLabel}...`}
        defaultValue={state.q ?? ''}
        autoComplete="off"
      />
      {withTypeAndViews && (
        <>
          <label className="visually-hidden" htmlFor="kb-type">
            Type
          </label>
          <select id="kb-type" className="select kb-filter" name="type" defaultValue={state.type ?? ''}>
            <option value="">All Types</option>
            {kbTypes.map((t) => (
              <option key={t} value={t}>
                {ITEM_TYPES[t].filterLabel}
              </option>
            ))}
          </select>
        </>
      )}
      <label className="visually-hidden" htmlFor="kb-category">
        Category
      </label>
      <select id="kb-category" className="select kb-filter" name="category" defaultValue={state.category ?? ''}>
        <option value="">All Categories</option>
        {categories.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
        {state.category && !categories.includes(state.category) && (
          <option value={state.category}>{state.category}</option>
        )}
      </select>
      <ReviewFilter state={state} />
      {withTypeAndViews && (
        <fieldset className="tabs kb-views">
          <legend className="visually-hidden">View</legend>
          {views.map((v) => (
            <label key={v} className="tab" title={viewLabels[v].label}>
              <input
                className="visually-hidden kb-filter"
                type="radio"
                name="view"
                value={v}
                defaultChecked={(state.view ?? 'grid') === v}
              />
              <Icon name={viewLabels[v].icon} />
              <span className="visually-hidden">{viewLabels[v].label}</span>
            </label>
          ))}
        </fieldset>
      )}
      <noscript>
        <button type="submit" className="btn btn--secondary">
          Apply
        </button>
      </noscript>
    </form>
  );
}
