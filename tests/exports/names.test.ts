import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fileSlug, folderName, imageIdsIn, rewriteImageLinks } from '../../src/exports/service';
import { ZipNames } from '../../src/exports/names';
import { ZipWriter, zipStream, type ZipEntry } from '../../src/exports/zip-stream';

/** Names inside an export zip, image links, and the zip writer (no database). */

const ID1 = '0b5c3a59-1f1e-4c8e-9d61-2a1b3c4d5e6f';
const ID2 = 'a7e2f0c4-4b0d-4b55-8f3e-9c8d7e6f5a4b';

describe('file and folder names', () => {
  it('slugs titles into safe file names: no slash, no dot-dot, letters of any script kept, never empty', () => {
    expect(fileSlug("Patch Günther's VPN: step 2")).toBe('patch-gunther-s-vpn-step-2');
    expect(fileSlug('../../etc/passwd')).toBe('etc-passwd');
    expect(fileSlug('a/b\\c')).toBe('a-b-c');
    expect(fileSlug('..')).toBe('untitled');
    expect(fileSlug('!!!')).toBe('untitled');
    expect(fileSlug('Резервное копирование')).toBe('резервное-копирование');
    expect(fileSlug('CON')).toBe('con_');
    expect(fileSlug('x'.repeat(300))).toHaveLength(80);
  });

  it('drops bidi controls and zero-width characters from titles: the slug reads as the title looks', () => {
    // A right-to-left override would show "invoice-fdp.exe" as "invoice-exe.pdf".
    expect(fileSlug('invoice\u202Efdp.exe')).toBe('invoicefdp-exe');
    expect(fileSlug('Fire\u200Bwall\u200C \u200Drules')).toBe('firewall-rules');
    expect(fileSlug('\uFEFFVPN\u2060 restart')).toBe('vpn-restart');
    expect(fileSlug('\u2066Backup\u2069 \u202Apolicy\u202C \u202B\u202D')).toBe('backup-policy');
    expect(fileSlug('\u200B\u202E\u2067')).toBe('untitled');
    // Letters of scripts that need no joiner stay as they are.
    expect(fileSlug('שלום עולם')).toBe('שלום-עולם');
  });

  it('drops bidi controls and zero-width characters from category folders', () => {
    expect(folderName('Net\u202Ework')).toBe('Network');
    expect(folderName('\u2066Ops\u2069 Linux\u200B')).toBe('Ops Linux');
    expect(folderName('\uFEFF..\u200D/etc')).toBe('etc');
    expect(folderName('\u202A\u202B\u202C\u202D\u2068\u2060')).toBe('category');
    for (const name of [folderName('a\u202Eb\u200Fc\u061Cd\u200Ee'), fileSlug('a\u202Eb\u200Fc\u061Cd\u200Ee')]) {
      expect(name).not.toMatch(/[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/);
    }
  });

  it('cleans a long title of invisible characters (and keeps the length limits of what is left)', () => {
    const long = '\u200B\u202Ea'.repeat(20_000);
    expect(fileSlug(long)).toBe('a'.repeat(80));
    expect(folderName(long)).toBe('a'.repeat(100));
  });

  it('makes categories safe folder names; no category is the top level', () => {
    expect(folderName(null)).toBe('');
    expect(folderName('  ')).toBe('');
    expect(folderName('Network')).toBe('Network');
    expect(folderName('Ops/Linux')).toBe('Ops-Linux');
    expect(folderName('../../etc')).toBe('etc');
    expect(folderName('..')).toBe('category');
    expect(folderName('.hidden')).toBe('hidden');
    expect(folderName('a\\b:c*?"<>|d')).toBe('a-b-c-d');
    expect(folderName('nul')).toBe('nul_');
  });

  it('gives a second and third item with the same slug in a folder -2 and -3 (without case), other folders their own', () => {
    const names = new ZipNames();
    expect(names.markdownPath('Network', 'vpn')).toBe('Network/vpn.md');
    expect(names.markdownPath('Network', 'vpn')).toBe('Network/vpn-2.md');
    expect(names.markdownPath('network', 'vpn')).toBe('network/vpn-3.md');
    expect(names.markdownPath('Network', 'vpn-2')).toBe('Network/vpn-2-2.md');
    expect(names.markdownPath('', 'vpn')).toBe('vpn.md');
    expect(names.markdownPath('Network', 'vpn')).toBe('Network/vpn-4.md');
    expect(names.claim('Network/images/x.png')).toBe(true);
    expect(names.claim('Network/images/x.png')).toBe(false);
  });
});

describe('many items of one title', () => {
  it('names 20,000 of them in one folder at a linear cost (each name tried about once)', () => {
    const names = new ZipNames();
    const claim = names.claim.bind(names);
    let tries = 0;
    names.claim = (path: string) => {
      tries++;
      return claim(path);
    };
    for (let i = 0; i < 20_000; i++) names.markdownPath('Notes', 'notes');
    expect(names.markdownPath('Notes', 'notes')).toBe('Notes/notes-20001.md');
    expect(tries).toBeLessThan(20_100);
  });
});

describe('image links', () => {
  const content = [
    `![diagram](/objects/${ID1})`,
    `<!-- width=300px height=auto -->\n![sized](/objects/${ID2.toUpperCase()} "title")`,
    `<img src="/objects/${ID1}">`,
    `[not ours](https://example.com/objects/${ID2})`,
    `/objects/${ID1}-suffix is not a link to it`,
  ].join('\n\n');

  it('finds each stored image once, in order', () => {
    expect(imageIdsIn(content)).toEqual([ID1, ID2]);
  });

  it('rewrites only the links it is given to their relative path', () => {
    const out = rewriteImageLinks(content, new Map([[ID1, `images/${ID1}.png`]]));
    expect(out).toContain(`![diagram](images/${ID1}.png)`);
    expect(out).toContain(`<img src="images/${ID1}.png">`);
    expect(out).toContain(`/objects/${ID2.toUpperCase()} "title"`);
    expect(out).toContain(`https://example.com/objects/${ID2}`);
  });
});

describe('zipStream', () => {
  const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * seed) % 251);

  it('writes entries that unzip to the same bytes, UTF-8 names included', async () => {
    const entries: ZipEntry[] = [
      { name: 'a.md', data: new TextEncoder().encode('# A\n'), deflate: true, mtime: new Date('2026-01-02T03:04:05Z') },
      { name: 'Сеть/b.md', data: new TextEncoder().encode('# B\n'), deflate: true },
      { name: 'images/x.png', data: bytes(5000, 7) },
    ];
    async function* source() {
      yield* entries;
    }
    const zip = new Uint8Array(await new Response(await zipStream(source())).arrayBuffer());
    const files = unzipSync(zip);
    expect(Object.keys(files)).toEqual(entries.map((e) => e.name));
    for (const e of entries) expect(Buffer.from(files[e.name]).equals(Buffer.from(e.data))).toBe(true);
  });

  it('takes the next entry only when the reader wants more bytes, and stops the source when the reader goes', async () => {
    let taken = 0;
    let stopped = false;
    async function* source(): AsyncGenerator<ZipEntry> {
      try {
        for (let i = 0; i < 1000; i++) {
          taken++;
          yield { name: `f${i}.bin`, data: bytes(1000, i + 1) };
        }
      } finally {
        stopped = true;
      }
    }
    const reader = (await zipStream(source())).getReader();
    await reader.read();
    await new Promise((r) => setTimeout(r, 20));
    expect(taken).toBeLessThanOrEqual(2);
    await reader.read();
    expect(taken).toBeLessThanOrEqual(3);
    await reader.cancel();
    expect(stopped).toBe(true);
  });

  it('switches to Zip64 past 65,535 files, and fflate reads every one back', async () => {
    const count = 70_000;
    async function* many(): AsyncGenerator<ZipEntry> {
      for (let i = 0; i < count; i++) yield { name: `f/${i}.txt`, data: Uint8Array.of(i % 256) };
    }
    const zip = new Uint8Array(await new Response(await zipStream(many())).arrayBuffer());
    const view = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
    // End record: the 16-bit count says "see Zip64", whose record holds the real one.
    expect(view.readUInt16LE(zip.byteLength - 22 + 10)).toBe(0xffff);
    const end64 = Number(view.readBigUInt64LE(zip.byteLength - 22 - 20 + 8));
    expect(view.readUInt32LE(end64)).toBe(0x06064b50);
    expect(Number(view.readBigUInt64LE(end64 + 32))).toBe(count);
    const files = unzipSync(zip);
    expect(Object.keys(files)).toHaveLength(count);
    expect(files['f/69999.txt']).toEqual(Uint8Array.of(69999 % 256));
  });

  it('keeps the offset of a file past 4 GiB in a Zip64 extra field of its central record', () => {
    const writer = new ZipWriter();
    (writer as unknown as { offset: number }).offset = 2 ** 32 + 5;
    writer.file({ name: 'far.txt', data: Uint8Array.of(1) });
    const [directory] = writer.end();
    expect(directory.readUInt32LE(0)).toBe(0x02014b50);
    expect(directory.readUInt32LE(42)).toBe(0xffffffff);
    expect(directory.readUInt16LE(30)).toBe(12);
    const extra = 46 + 'far.txt'.length;
    expect(directory.readUInt16LE(extra)).toBe(1);
    expect(Number(directory.readBigUInt64LE(extra + 4))).toBe(2 ** 32 + 5);
  });

  it('fails itself, before there is a stream, when the source fails on its first entry', async () => {
    async function* failing(): AsyncGenerator<ZipEntry> {
      await Promise.reject(new Error('database is down'));
      yield { name: 'never.txt', data: Uint8Array.of(1) };
    }
    const heard: unknown[] = [];
    await expect(zipStream(failing(), (err) => heard.push(err))).rejects.toThrow('database is down');
    // Not a streaming failure: the caller answers it.
    expect(heard).toEqual([]);
  });

  it('ends the stream in error and says why when the source fails midway', async () => {
    async function* failing(): AsyncGenerator<ZipEntry> {
      yield { name: 'a.txt', data: Uint8Array.of(1) };
      throw new Error('database went away');
    }
    const heard: unknown[] = [];
    const reader = (await zipStream(failing(), (err) => heard.push(err))).getReader();
    expect((await reader.read()).done).toBe(false);
    await expect(reader.read()).rejects.toThrow('database went away');
    expect(heard).toHaveLength(1);
  });
});
