import { describe, expect, it } from 'vitest';
import { diffLines, type DiffLine } from '../../src/knowledge/shared';

/** A diff as "+ text", "- text" and "  text" lines, as the Version History dialog shows it. */
const show = (lines: DiffLine[]) =>
  lines.map((l) => `${l.kind === 'add' ? '+' : l.kind === 'remove' ? '-' : ' '} ${l.text}`);

describe('diffLines (Version History: selected version → current)', () => {
  it('keeps identical texts as unchanged lines', () => {
    expect(show(diffLines('a\nb\nc', 'a\nb\nc'))).toEqual(['  a', '  b', '  c']);
  });

  it('marks lines only in the newer text as added', () => {
    expect(show(diffLines('a\nc', 'a\nb\nc\nd'))).toEqual(['  a', '+ b', '  c', '+ d']);
  });

  it('marks lines only in the older text as removed', () => {
    expect(show(diffLines('x\na\nb\nc', 'a\nc'))).toEqual(['- x', '  a', '- b', '  c']);
  });

  it('shows a change in the middle as the old line removed, then the new one added, between the kept lines', () => {
    expect(
      show(diffLines('# Steps\n1. Drain\n2. Patch\n3. Reboot', '# Steps\n1. Drain\n2. Patch and verify\n3. Reboot')),
    ).toEqual(['  # Steps', '  1. Drain', '- 2. Patch', '+ 2. Patch and verify', '  3. Reboot']);
  });

  it('aligns on the longest run of common lines when several lines change', () => {
    expect(show(diffLines('a\nb\nc\nd\ne', 'a\nx\nc\ny\ne'))).toEqual([
      '  a',
      '- b',
      '+ x',
      '  c',
      '- d',
      '+ y',
      '  e',
    ]);
    expect(show(diffLines('a\nb', 'b\na'))).toEqual(['- a', '  b', '+ a']);
  });

  it('has no lines for empty texts: empty → text is all added, text → empty all removed', () => {
    expect(diffLines('', '')).toEqual([]);
    expect(show(diffLines('', 'a\nb'))).toEqual(['+ a', '+ b']);
    expect(show(diffLines('a\nb', ''))).toEqual(['- a', '- b']);
  });

  it('keeps blank lines as lines, reads a final newline as the end of the last line and CRLF as LF', () => {
    expect(show(diffLines('a\n\nb', 'a\n\nc'))).toEqual(['  a', '  ', '- b', '+ c']);
    expect(show(diffLines('a\n', 'a\nb\n'))).toEqual(['  a', '+ b']);
    expect(show(diffLines('a\r\nb\r\n', 'a\nb'))).toEqual(['  a', '  b']);
    expect(show(diffLines('\n', ''))).toEqual(['- ']);
  });

  it('falls back to all removed, then all added, for texts too large to compare line by line', () => {
    const from = Array.from({ length: 2100 }, (_, i) => `old ${i}`);
    const to = Array.from({ length: 2100 }, (_, i) => `new ${i}`);
    const diff = diffLines(['head', ...from, 'tail'].join('\n'), ['head', ...to, 'tail'].join('\n'));
    expect(diff).toHaveLength(2 + 2 * 2100);
    expect(diff[0]).toEqual({ kind: 'same', text: 'head' });
    expect(diff.slice(1, 2101).every((l) => l.kind === 'remove')).toBe(true);
    expect(diff.slice(2101, 4201).every((l) => l.kind === 'add')).toBe(true);
    expect(diff.at(-1)).toEqual({ kind: 'same', text: 'tail' });
  });
});
