/** JSON shapes the knowledge islands receive from the server (dates as ISO strings). */

/** An item in the category tree: only what the tree shows (hundreds of them reach the page). */
export interface CategoryItem {
  id: string;
  title: string;
}

/** The item shown in the preview pane. */
export interface PreviewItem {
  id: string;
  title: string;
  category: string | null;
  templateType: string | null;
  isTemplate: boolean;
  version: number;
  updatedAt: string;
  excerpt: string | null;
  tags: string[];
  /** The content as sanitised HTML, rendered by the server. */
  html: string;
  servers?: LinkedServer[];
}

export interface CategoryGroup {
  /** '' is "Uncategorized". */
  name: string;
  count: number;
  items: CategoryItem[];
}

export interface LinkedServer {
  id: string;
  name: string;
}
