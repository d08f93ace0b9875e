import type { Assets } from '../../ui/assets';
import { IslandRoot } from '../../ui/Island';
import CategoryView from '../../../islands/CategoryView';
import type { CategoryGroup, CategoryItem } from '../shared';

/** Items per group sent to the browser; bigger groups link to their own filtered view. */
const PER_GROUP = 100;

type TreeItem = CategoryItem & { category: string | null };

/** Groups (with full counts) holding the newest items of each category. */
export function buildGroups(items: TreeItem[], counts: { name: string; count: number }[]): CategoryGroup[] {
  const groups = new Map(counts.map((c) => [c.name, { name: c.name, count: c.count, items: [] as CategoryItem[] }]));
  for (const { id, title, category } of items) {
    const g = groups.get(category || '');
    if (g && g.items.length < PER_GROUP) g.items.push({ id, title });
  }
  return [...groups.values()];
}

export interface CategoryPaneProps {
  assets: Assets;
  groups: CategoryGroup[];
  now: Date;
  /** The reader may restore deleted items (the preview's delete question says so). */
  canRestore: boolean;
  /** The reader's role writes content (the preview still asks the item whether they may edit it). */
  canWrite: boolean;
  timeZone: string;
  /** How often the preview refreshes its linked servers (config.serversPanelPollMs). */
  serversPollMs: number;
}

/** The category view island (rendered on the server, hydrated in the browser). */
export function CategoryPane(props: CategoryPaneProps) {
  const { assets, groups, now, canRestore, canWrite, timeZone, serversPollMs } = props;
  return (
    <IslandRoot
      name="CategoryView"
      component={CategoryView}
      assets={assets}
      props={{ groups, now: now.toISOString(), canRestore, canWrite, timeZone, serversPollMs }}
    />
  );
}
