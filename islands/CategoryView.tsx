import { useRef, useState } from 'react';
import { Panel, PanelGroup, PanelResizeHandle } from 'react-resizable-panels';
import { api } from './_lib/api';
import { toast } from './_lib/toast';
import { CategoryTree } from './_lib/knowledge/CategoryTree';
import { ItemPreview } from './_lib/knowledge/ItemPreview';
import type { CategoryGroup, Item, PreviewItem } from '../src/knowledge/shared';

export interface CategoryViewProps {
  groups: CategoryGroup[];
  selected: PreviewItem | null;
  /** The server's "now" (relative times must match on hydration). */
  now: string;
  /** The list's query string (filters + view=category), for links to items. */
  query: string;
}

/** Knowledge base category view: the category tree (30%, 25–50%, remembered) and the preview of one item. */
export default function CategoryView({
  groups: initialGroups,
  selected: initialSelected,
  now,
  query,
}: CategoryViewProps) {
  const [groups, setGroups] = useState(initialGroups);
  const [selected, setSelected] = useState(initialSelected);
  const [loading, setLoading] = useState(false);
  const request = useRef(0);

  async function select(id: string) {
    const mine = ++request.current;
    setLoading(true);
    try {
      const item = await api<PreviewItem>('GET', `/api/knowledge-base/${id}?include=html`);
      if (mine === request.current) setSelected(item);
    } catch {
      toast('Error', 'Failed to load the knowledge base item. Please try again.', 'error');
    } finally {
      if (mine === request.current) setLoading(false);
    }
  }

  function removed(id: string) {
    setGroups((gs) =>
      gs
        .map((g) =>
          g.items.some((i) => i.id === id)
            ? { ...g, count: g.count - 1, items: g.items.filter((i) => i.id !== id) }
            : g,
        )
        .filter((g) => g.count > 0),
    );
    setSelected(null);
  }

  function restored(item: Item) {
    void select(item.id);
    setGroups((gs) =>
      gs.map((g) => ({ ...g, items: g.items.map((i) => (i.id === item.id ? { ...i, title: item.title } : i)) })),
    );
  }

  return (
    <PanelGroup direction="horizontal" autoSaveId="kb-category-split" className="split kb-split">
      <Panel id="kb-categories" order={1} defaultSize={30} minSize={25} maxSize={50} className="kb-split__tree">
        <h2 className="kb-split__heading">Categories</h2>
        <CategoryTree
          groups={groups}
          selectedId={selected?.id ?? null}
          query={query}
          onSelect={(id) => void select(id)}
        />
      </Panel>
      <PanelResizeHandle className="kb-split__handle" aria-label="Resize categories" />
      <Panel id="kb-preview" order={2} defaultSize={70} className="kb-split__preview">
        <ItemPreview item={selected} now={now} loading={loading} onDeleted={removed} onRestored={restored} />
      </Panel>
    </PanelGroup>
  );
}
