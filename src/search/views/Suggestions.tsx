import type { SearchResult } from '../schemas';

const typeLabel = { knowledge: 'Knowledge Base', document: 'Document', server: 'Server' } as const;

/** The header search list's content (an htmx fragment): a message or up to 8 options. */
export function Suggestions({ q, results }: { q: string; results: SearchResult[] }) {
  const marker = <span hidden data-search-query={q} />;
  if (!q.trim()) {
    return (
      <>
        {marker}
        <p className="search-results__empty">Start typing to search...</p>
      </>
    );
  }
  if (results.length === 0) {
    return (
      <>
        {marker}
        <p className="search-results__empty">No documents found.</p>
      </>
    );
  }
  return (
    <>
      {marker}
      {results.map((r, i) => (
        <a
          key={r.id}
          id={`global-search-option-${i}`}
          role="option"
          aria-selected="false"
          tabIndex={-1}
          className="search-results__item"
          href={r.url}
        >
          {r.title}
          <span className="search-results__meta">
            {typeLabel[r.type]}
            {r.category ? ` · ${r.category}` : ''}
          </span>
        </a>
      ))}
    </>
  );
}
