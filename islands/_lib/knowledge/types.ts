/** JSON shapes the knowledge islands receive from the server (dates as ISO strings). */
export interface CategoryItem {
  id: string;
  title: string;
  category: string | null;
  templateType: string | null;
  isTemplate: boolean;
  version: number;
  updatedAt: string;
  excerpt: string | null;
  tags: string[];
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

export interface PreviewItem extends CategoryItem {
  /** The content as sanitised HTML, rendered by the server. */
  html: string;
  servers?: LinkedServer[];
}
