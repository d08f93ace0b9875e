import type { Assets } from '../../ui/assets';
import { IslandRoot } from '../../ui/Island';
import CategoryView from '../../../islands/CategoryView';
import type { Item } from '../schemas';
import { pick, PREVIEW_FIELDS, type CategoryGroup, type CategoryItem, type PreviewItem } from '../shared';

/** Items per group sent to the browser; bigger groups link to their own filtered view. */
const PER_GROUP = 100;

type TreeItem = CategoryItem & { category: string | null };

/** Groups (with full counts) holding the newest items of each category. */
export function buildGroups(
  items: TreeItem[],
  counts: { name: string; count: number }[],
  selected: TreeItem | null,
): CategoryGroup[] {
  const groups = new Map(counts.map((c) => [c.name, { name: c.name, count: c.count, items: [] as CategoryItem[] }]));
  for (const { id, title, category } of items) {
    const g = groups.get(category || '');
    if (g && g.items.length < PER_GROUP) g.items.push({ id, title });
  }
  if (selected) {
    const g = groups.get(selected.category || '');
    if (g && !g.items.some((i) => i.id === selected.id)) g.items.unshift({ id: selected.id, title: selected.title });
  }
  return [...groups.values()];
}

const previewOf = (i: CategoryPaneProps['selected'] & {}): PreviewItem => ({
  ...pick(i, PREVIEW_FIELDS),
  html: i.html,
  servers: i.servers,
});

export interface CategoryPaneProps {
  assets: Assets;
  groups: CategoryGroup[];
  selected: (Item & { html: string; servers?: { id: string; name: string }[] }) | null;
  now: Date;
  query: string;
}

/** The category view island (rendered on the server, hydrated in the browser). */
export function CategoryPane({ assets, groups, selected, now, query }: CategoryPaneProps) {
  const preview: PreviewItem | null = selected ? previewOf(selected) : null;
  return (
    <IslandRoot
      name="CategoryView"
      component={CategoryView}
      assets={assets}
      props={{ groups, selected: preview, now: now.toISOString(), query }}
    />
  );
}
