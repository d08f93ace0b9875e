import { describe, expect, it } from 'vitest';
import { cachedPage, cachePage } from '../../src/ui/page-cache';

const page = (mib: number) => ({ html: 'x'.repeat((mib * 1024 * 1024) / 2), gzip: new Uint8Array(0) });

describe('page cache', () => {
  it('keeps pages by key and drops the least recently used past 16 MiB', () => {
    cachePage('a', page(6));
    cachePage('b', page(6));
    expect(cachedPage('a')).toBeDefined(); // a is now the most recently used
    cachePage('c', page(6));
    expect(cachedPage('b')).toBeUndefined();
    expect(cachedPage('a')).toBeDefined();
    expect(cachedPage('c')).toBeDefined();
  });

  it('keeps the first page of a key (a page for a key never changes)', () => {
    const first = page(0.01);
    cachePage('same', first);
    cachePage('same', page(0.01));
    expect(cachedPage('same')).toBe(first);
  });
});
