import { type ReactNode, type RefObject, useRef, useState, useSyncExternalStore } from 'react';
import { Panel, PanelGroup, PanelResizeHandle } from 'react-resizable-panels';
import { api } from './_lib/api';
import { toast } from './_lib/toast';
import { CategoryTree } from './_lib/knowledge/CategoryTree';
import { ItemPreview } from './_lib/knowledge/ItemPreview';
import type { CategoryGroup, Item, PreviewItem } from '../src/knowledge/shared';
import { SERVERS_PANEL_POLL_MS } from '../src/runbooks/shared';

export interface CategoryViewProps {
  groups: CategoryGroup[];
  /** The server's "now" (relative times must match on hydration). */
  now: string;
  /** The reader may restore deleted items (the preview's delete question says so). */
  canRestore: boolean;
  /** The reader's role writes content; each item's preview also says whether they may edit or share it. */
  canWrite: boolean;
  /** The reader's timezone (the Share dialog's times). */
  timeZone?: string;
  /** How often the preview refreshes its linked servers (config SERVERS_PANEL_POLL_MS). */
  serversPollMs?: number;
}

/** The phones' breakpoint of static/app.css: below it the tree and the preview are stacked. */
const PHONE = '(max-width: 639.98px)';

function subscribePhone(onChange: () => void) {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** True on a phone-wide screen; false on the server (the page is rendered for a desktop, then adapts). */
const usePhone = () =>
  useSyncExternalStore(
    subscribePhone,
    () => window.matchMedia(PHONE).matches,
    () => false,
  );

/** Desktop: side by side, the tree 30% (25–50%, the split remembered). */
function SideBySide({ tree, preview }: { tree: ReactNode; preview: ReactNode }) {
  return (
    <PanelGroup direction="horizontal" autoSaveId="kb-category-split" className="split kb-split">
      <Panel id="kb-categories" order={1} defaultSize={30} minSize={25} maxSize={50} className="kb-split__tree">
        <h2 className="kb-split__heading">Categories</h2>
        {tree}
      </Panel>
      <PanelResizeHandle className="kb-split__handle" aria-label="Resize categories" />
      <Panel id="kb-preview" order={2} defaultSize={70} className="kb-split__preview">
        {preview}
      </Panel>
    </PanelGroup>
  );
}

/** Phones: the tree first (collapsible), the preview below it at full width. */
function Stacked(props: { tree: ReactNode; preview: ReactNode; previewRef: RefObject<HTMLDivElement | null> }) {
  const { tree, preview, previewRef } = props;
  return (
    <div className="kb-stack">
      <details className="kb-stack__tree" open>
        <summary className="kb-split__heading">Categories</summary>
        {tree}
      </details>
      <div className="kb-stack__preview" ref={previewRef}>
        {preview}
      </div>
    </div>
  );
}

/** Knowledge base category view: the category tree and the preview of one item. */
export default function CategoryView(props: CategoryViewProps) {
  const { groups: initialGroups, now, canRestore, canWrite, timeZone = 'UTC' } = props;
  const serversPollMs = props.serversPollMs ?? SERVERS_PANEL_POLL_MS;
  const [groups, setGroups] = useState(initialGroups);
  const [selected, setSelected] = useState<PreviewItem | null>(null);
  const [loading, setLoading] = useState(false);
  const request = useRef(0);
  const phone = usePhone();
  const previewRef = useRef<HTMLDivElement>(null);

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

  function choose(id: string) {
    void select(id);
    // On a phone the preview is below the tree: bring it into view.
    if (phone) previewRef.current?.scrollIntoView({ block: 'start' });
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

  const tree = <CategoryTree groups={groups} selectedId={selected?.id ?? null} onSelect={choose} />;
  const preview = (
    <ItemPreview
      item={selected}
      now={now}
      loading={loading}
      canRestore={canRestore}
      canWrite={canWrite}
      timeZone={timeZone}
      serversPollMs={serversPollMs}
      onDeleted={removed}
      onRestored={restored}
    />
  );
  return phone ? (
    <Stacked tree={tree} preview={preview} previewRef={previewRef} />
  ) : (
    <SideBySide tree={tree} preview={preview} />
  );
}
