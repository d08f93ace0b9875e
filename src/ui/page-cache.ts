/**
 * Whole rendered pages kept in memory, for pages read far more often than they change (an item's read page).
 * Bounded by bytes; the least recently used page goes first.
 */
export interface CachedPage {
  html: string;
  gzip: Uint8Array<ArrayBuffer>;
}

const MAX_BYTES = 16 * 1024 * 1024;
const pages = new Map<string, CachedPage>();
let bytes = 0;

const sizeOf = (page: CachedPage) => page.html.length * 2 + page.gzip.byteLength;

export function cachedPage(key: string): CachedPage | undefined {
  const page = pages.get(key);
  if (page) {
    // Map keeps insertion order: re-inserting marks it as the most recently used.
    pages.delete(key);
    pages.set(key, page);
  }
  return page;
}

export function cachePage(key: string, page: CachedPage): void {
  if (pages.has(key)) return;
  pages.set(key, page);
  bytes += sizeOf(page);
  for (const [oldKey, old] of pages) {
    if (bytes <= MAX_BYTES) break;
    pages.delete(oldKey);
    bytes -= sizeOf(old);
  }
}
