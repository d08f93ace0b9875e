import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/http/errors';
import { EntryProblem, inflateEntry, readArchive, safePath } from '../../src/imports/zip';
import { archiveOf } from '../../src/imports/upload';
import { withDeclaredSize, withSharedData, zip } from './zips';

const refusal = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('reading a zip', () => {
  it('lists the files by their central directory and inflates each, checked', () => {
    const archive = readArchive(zip({ 'a/b.md': '# B\n\ntext', 'a/c/': new Uint8Array(0), 'top.md': 'x' }), 'up.zip');
    expect(archive.entries.map((e) => e.path)).toEqual(['a/b.md', 'top.md']);
    const entry = archive.byPath.get('a/b.md')!;
    expect(new TextDecoder().decode(inflateEntry(archive, entry, 1000))).toBe('# B\n\ntext');
    expect(() => inflateEntry(archive, entry, 3)).toThrow(EntryProblem);
  });

  it('refuses paths outside the archive, naming them', () => {
    for (const bad of ['../evil.md', 'a/../../evil.md', '/etc/passwd.md', 'C:/x.md', 'a\\..\\b.md']) {
      const err = refusal(() => readArchive(zip({ [bad]: 'x', 'ok.md': 'y' }), 'up.zip'));
      expect(err.status, bad).toBe(400);
      expect(err.message).toContain(`"${bad}"`);
    }
    expect(safePath('./a//b.md')).toBe('a/b.md');
  });

  it('refuses an archive that declares more than 200 MB, or an entry compressed like a bomb', () => {
    const many = zip({ 'a.md': 'a', 'b.md': 'b' });
    const declared = refusal(() => readArchive(withDeclaredSize(withDeclaredSize(many, 0, 150e6), 1, 150e6), 'x.zip'));
    expect([declared.status, declared.code]).toEqual([413, 'zip_bomb']);
    const zeros = zipSync({ 'zeros.md': new Uint8Array(3 * 1024 * 1024) }, { level: 9 });
    const ratio = refusal(() => readArchive(zeros, 'x.zip'));
    expect([ratio.status, ratio.code]).toEqual([413, 'zip_bomb']);
    expect(ratio.message).toContain('"zeros.md"');
  });

  it('counts the bytes it inflates: more than the header declares refuses the upload', () => {
    const lying = withDeclaredSize(zipSync({ 'a.md': new Uint8Array(500_000).fill(65) }), 0, 1000);
    const archive = readArchive(lying, 'x.zip');
    const err = refusal(() => inflateEntry(archive, archive.entries[0], 10_000_000));
    expect([err.status, err.code]).toEqual([413, 'zip_bomb']);
  });

  it('refuses entries that share their data', () => {
    const err = refusal(() => readArchive(withSharedData(zip({ 'a.md': 'aaaa', 'b.md': 'bbbb' }), 1, 0), 'x.zip'));
    expect([err.status, err.code]).toEqual([413, 'zip_bomb']);
  });

  it('refuses what is not a zip, and more than 2,000 files', () => {
    expect(refusal(() => readArchive(new TextEncoder().encode('not a zip at all, really'), 'x.zip')).status).toBe(400);
    const files: Record<string, string> = {};
    for (let i = 0; i <= 2000; i++) files[`f${i}.md`] = 'x';
    expect(refusal(() => readArchive(zip(files), 'x.zip')).status).toBe(413);
  });

  it('a damaged entry is that entry’s problem only', () => {
    const good = zip({ 'a.md': 'hello hello hello', 'b.md': 'fine' });
    const damaged = good.slice();
    damaged[30 + 4 + 2] ^= 0xff; // a byte of a.md's data
    const archive = readArchive(damaged, 'x.zip');
    expect(() => inflateEntry(archive, archive.byPath.get('a.md')!, 1000)).toThrow(EntryProblem);
    expect(new TextDecoder().decode(inflateEntry(archive, archive.byPath.get('b.md')!, 1000))).toBe('fine');
  });
});

describe('an upload of files', () => {
  const md = (name: string) => ({ name, bytes: new TextEncoder().encode(`# ${name}`) });

  it('packs Markdown files into one archive, folder names kept and repeated names numbered', () => {
    const archive = archiveOf([md('a.md'), md('notes/b.md'), md('a.md')]);
    expect(archive.entries.map((e) => e.path).sort()).toEqual(['a (2).md', 'a.md', 'notes/b.md']);
  });

  it('takes one zip on its own, and refuses none, a zip among files, unsafe names and too many', () => {
    expect(archiveOf([{ name: 'up.zip', bytes: zip({ 'x.md': 'x' }) }]).entries).toHaveLength(1);
    expect(refusal(() => archiveOf([])).status).toBe(400);
    expect(refusal(() => archiveOf([{ name: 'up.zip', bytes: zip({ 'x.md': 'x' }) }, md('a.md')])).status).toBe(400);
    expect(refusal(() => archiveOf([md('../a.md')])).message).toContain('"../a.md"');
    expect(refusal(() => archiveOf(Array.from({ length: 2001 }, (_, i) => md(`f${i}.md`)))).status).toBe(413);
  });
});
