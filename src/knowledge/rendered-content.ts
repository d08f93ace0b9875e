import { renderDocument, type TocEntry } from '../markdown/document';

export interface RenderedContent {
  html: string;
  headings: TocEntry[];
}

/** Rendered items kept in memory: a read page is mostly the same few runbooks opened again and again. */
const MAX_ENTRIES = 200;
const cache = new Map<string, RenderedContent>();

/**
 * An item's content as sanitised HTML with its headings, rendered once per version: the key holds the id, version
 * and update time, so any save or restore renders anew and an old entry is never served.
 */
export function renderedContent(item: { id: string; version: number; updatedAt: string; content: string }) {
  const key = `${item.id}:${item.version}:${item.updatedAt}`;
  const hit = cache.get(key);
  if (hit) {
    // Map keeps insertion order: re-inserting marks it as the most recently used.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const rendered = renderDocument(item.content);
  cache.set(key, rendered);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return rendered;
}
