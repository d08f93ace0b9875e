import { Badge, Card, EmptyState } from '../../ui/components';
import type { SearchResult } from '../schemas';

const typeLabel = { knowledge: 'Knowledge Base', document: 'Document', server: 'Server' } as const;

/** The no-JavaScript results page of the header search (GET /search?q=). */
export function SearchPage({ q, results }: { q: string; results: SearchResult[] }) {
  return (
    <div className="stack">
      {/* biome-ignore lint/a11y/useSemanticElements: the form is the search landmark; <search> adds a box */}
      <form className="toolbar search-page__form" action="/search" method="get" role="search">
        <label className="visually-hidden" htmlFor="search-page-input">
          Search
        </label>
        <input
          id="search-page-input"
          className="input"
          type="search"
          name="q"
          defaultValue={q}
          placeholder="Search documents..."
        />
        <button type="submit" className="btn btn--primary">
          Search
        </button>
      </form>
      <Card title={q.trim() ? `Results for "${q.trim()}"` : 'Search'}>
        {!q.trim() ? (
          <EmptyState icon="search" title="Start typing to search..." />
        ) : results.length === 0 ? (
          <EmptyState icon="search" title="No documents found." />
        ) : (
          <ul className="search-page__list">
            {results.map((r) => (
              <li key={`${r.type}-${r.id}`} className="search-page__item">
                <a href={r.url} className="search-page__title">
                  {r.title}
                </a>
                <Badge colour={r.type === 'server' ? 'blue' : r.type === 'knowledge' ? 'purple' : 'neutral'}>
                  {typeLabel[r.type]}
                </Badge>
                {r.category && <span className="muted small">{r.category}</span>}
                {r.excerpt && <p className="muted small search-page__excerpt">{r.excerpt}</p>}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
