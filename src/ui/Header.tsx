import { Icon } from './icons';
import { NotificationBell } from './NotificationBell';

/** The page header: toggles, title and subtitle, global search, notifications. */
export function Header({
  title,
  titleIsHeading = true,
  subtitle,
  query,
}: {
  title: string;
  titleIsHeading?: boolean;
  subtitle?: string;
  query?: string;
}) {
  const Title = titleIsHeading ? 'h1' : 'p';
  return (
    <header className="page-header">
      <button
        type="button"
        className="icon-button menu-toggle"
        data-menu-toggle
        aria-controls="sidebar"
        aria-expanded="false"
      >
        <Icon name="menu" label="Open menu" />
      </button>
      <button type="button" className="icon-button sidebar-toggle" data-sidebar-toggle aria-controls="sidebar">
        <Icon name="panel" label="Collapse sidebar" />
      </button>
      <div className="page-header__titles">
        <Title className="page-header__title">{title}</Title>
        {subtitle && <p className="page-header__subtitle">{subtitle}</p>}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: the form is the search landmark; <search> adds a box */}
      <form className="global-search" action="/search" method="get" role="search">
        <label className="visually-hidden" htmlFor="global-search-input">
          Search documents
        </label>
        <input
          id="global-search-input"
          className="input global-search__input"
          type="search"
          name="q"
          placeholder="Search documents..."
          defaultValue={query}
          autoComplete="off"
          role="combobox"
          aria-expanded="false"
          aria-controls="global-search-results"
          aria-autocomplete="list"
          aria-keyshortcuts="/ Control+K Meta+K"
          hx-get="/search/suggest"
          hx-trigger="input changed delay:500ms, search"
          hx-target="#global-search-results"
          hx-sync="this:replace"
        />
        <div id="global-search-results" className="search-results" role="listbox" aria-label="Search results" hidden />
      </form>
      <div className="page-header__actions">
        <NotificationBell />
      </div>
    </header>
  );
}
