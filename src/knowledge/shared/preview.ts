import type { ServerSummary } from '../../runbooks/shared';
import type { Item, PREVIEW_FIELDS } from './item-fields';

/** JSON shapes the knowledge islands receive from the server (dates as ISO strings). */

/** An item in the category tree: only what the tree shows (hundreds of them reach the page). */
export interface CategoryItem {
  id: string;
  title: string;
}

/** The item shown in the preview pane: PREVIEW_FIELDS, its content as sanitised HTML and its linked servers' state. */
export type PreviewItem = Pick<Item, (typeof PREVIEW_FIELDS)[number]> & {
  html: string;
  servers?: ServerSummary[];
  /** What the reader may do with it (the preview shows only those buttons). */
  canWrite?: boolean;
  canShare?: boolean;
};

export interface CategoryGroup {
  /** '' is "Uncategorized". */
  name: string;
  count: number;
  items: CategoryItem[];
}
