import { renderDocument, type TocEntry } from '../markdown/document';
import type { FilledContent } from '../runbooks/service';

export interface RenderedContent {
  html: string;
  headings: TocEntry[];
}

/** Rendered items kept in memory: a read page is mostly the same few runbooks opened again and again. */
const MAX_ENTRIES = 200;
const cache = new Map<string, RenderedContent>();

/**
 * An item's content as sanitised HTML with its headings, rendered once per version and placeholder values: the key
 * holds the id, version, update time and the values its server placeholders were filled with (`filled`, made from
 * this item's content), so any save or restore, and any changed server value, renders anew and an old entry is never
 * served. Without `filled` the content renders as written.
 */
export function renderedContent(
  item: { id: string; version: number; updatedAt: string; content: string },
  filled?: FilledContent,
) {
  const values = filled?.values.length ? `:${JSON.stringify(filled.values)}` : '';
  const key = `${item.id}:${item.version}:${item.updatedAt}${values}`;
  const hit = cache.get(key);
  if (hit) {
    // Map keeps insertion order: re-inserting marks it as the most recently used.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const rendered = filled ? renderDocument(filled.markdown, filled.fill) : renderDocument(item.content);
  cache.set(key, rendered);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return rendered;
}
