import type { MouseEvent } from 'react';
import { itemHref, type CategoryGroup } from '../../../src/knowledge/shared';

export interface CategoryTreeProps {
  groups: CategoryGroup[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/** Groups sorted alphabetically, "Uncategorized" last, each with its count; a click previews, the link is the item's page. */
export function CategoryTree({ groups, selectedId, onSelect }: CategoryTreeProps) {
  const sorted = [...groups].sort((a, b) => (a.name === '' ? 1 : b.name === '' ? -1 : a.name.localeCompare(b.name)));
  const open = (e: MouseEvent, id: string) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    onSelect(id);
  };
  if (!sorted.length) return <p className="muted kb-split__empty">No items found</p>;
  return (
    <ul className="tree" aria-label="Categories">
      {sorted.map((g) => {
        const label = g.name || 'Uncategorized';
        const hasSelected = g.items.some((i) => i.id === selectedId);
        return (
          <li key={label}>
            <details className="tree__group" open={hasSelected || sorted.length === 1 || undefined}>
              <summary>
                <span>{label}</span>
                <span className="badge badge--neutral">{g.count}</span>
              </summary>
              <ul>
                {g.items.map((i) => (
                  <li key={i.id}>
                    <a
                      className="tree__item"
                      href={itemHref('knowledge', i.id, i.title)}
                      aria-current={i.id === selectedId}
                      onClick={(e) => open(e, i.id)}
                    >
                      {i.title}
                    </a>
                  </li>
                ))}
                {g.items.length < g.count && (
                  <li>
                    <a
                      className="tree__item small"
                      href={`/knowledge-base?view=category&category=${encodeURIComponent(g.name || 'Uncategorized')}`}
                    >
                      Show all {g.count}
                    </a>
                  </li>
                )}
              </ul>
            </details>
          </li>
        );
      })}
    </ul>
  );
}
