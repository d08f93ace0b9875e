import type { Assets } from '../../ui/assets';
import { IslandRoot } from '../../ui/Island';
import CategoryView from '../../../islands/CategoryView';
import type { CategoryGroup, CategoryItem, PreviewItem } from '../../../islands/_lib/knowledge/types';
import type { Item } from '../schemas';

/** Items per group sent to the browser; bigger groups link to their own filtered view. */
const PER_GROUP = 100;

const summary = (i: Item): CategoryItem => ({
  id: i.id,
  title: i.title,
  category: i.category,
  templateType: i.templateType,
  isTemplate: i.isTemplate,
  version: i.version,
  updatedAt: i.updatedAt,
  excerpt: i.excerpt,
  tags: i.tags,
});

/** Groups (with full counts) holding the newest items of each category. */
export function buildGroups(items: Item[], counts: { name: string; count: number }[], selected: Item | null): CategoryGroup[] {
  const groups = new Map(counts.map((c) => [c.name, { name: c.name, count: c.count, items: [] as CategoryItem[] }]));
  for (const item of items) {
    const g = groups.get(item.category || '');
    if (g && g.items.length < PER_GROUP) g.items.push(summary(item));
  }
  if (selected) {
    const g = groups.get(selected.category || '');
    if (g && !g.items.some((i) => i.id === selected.id)) g.items.unshift(summary(selected));
  }
  return [...groups.values()];
}

export interface CategoryPaneProps {
  assets: Assets;
  groups: CategoryGroup[];
  selected: (Item & { html: string; servers?: { id: string; name: string }[] }) | null;
  now: Date;
  query: string;
}

/** The category view island (rendered on the server, hydrated in the browser). */
export function CategoryPane({ assets, groups, selected, now, query }: CategoryPaneProps) {
  const preview: PreviewItem | null = selected ? { ...summary(selected), html: selected.html, servers: selected.servers } : null;
  return (
    <IslandRoot name="CategoryView" component={CategoryView} assets={assets} props={{ groups, selected: preview, now: now.toISOString(), query }} />
  );
}
