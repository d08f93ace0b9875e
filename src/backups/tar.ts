import { extract, pack } from 'tar-stream';

/** One entry of a data folder's tar: a folder (no data) or a file with its bytes; names relative, '/'-separated. */
export interface TarEntry {
  name: string;
  data?: Buffer;
  mtime: Date;
}

/** Why a tar is not a data folder PGlite may load (restore.ts says it with the backup's name). */
export class TarError extends Error {}

/**
 * The name written for an entry. PGlite's loader (tinytar) reads only a header's 100-byte name field (no prefix, pax
 * or GNU long names) and puts each name under its data folder, out of which a `..` would climb.
 */
function headerName(entry: TarEntry): string {
  if (!entry.name || entry.name.split('/').includes('..')) {
    throw new TarError(`its entry "${entry.name}" points outside the folder`);
  }
  const name = entry.data ? entry.name : `${entry.name}/`;
  if (!/^[\x20-\x7e]{1,100}$/.test(name)) throw new TarError(`its entry "${entry.name}" has too long a name`);
  return name;
}

/** A ustar archive of the entries, as PGlite's loadDataDir reads them. */
export async function packTar(entries: TarEntry[]): Promise<Buffer> {
  const names = entries.map(headerName);
  const tarball = pack();
  for (const [i, { data, mtime }] of entries.entries()) {
    if (data) tarball.entry({ name: names[i], type: 'file', mode: 0o600, mtime }, data);
    else tarball.entry({ name: names[i], type: 'directory', mode: 0o700, mtime });
  }
  tarball.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tarball) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The files and folders of a tar, refused (TarError) unless it is a whole tar of nothing else, each named inside its
 * folder. A leading '/' is not absolute here: PGlite's own dumps start every name with one. Links are refused.
 */
export async function readTar(bytes: Uint8Array): Promise<TarEntry[]> {
  const reader = extract();
  reader.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const read: (TarEntry & { type?: string | null })[] = [];
  try {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const { name, type, mtime } = entry.header;
      read.push({
        name: name.replace(/^\/+|\/+$/g, ''),
        type,
        mtime,
        data: type === 'file' ? Buffer.concat(chunks) : undefined,
      });
    }
  } catch {
    throw new TarError('it is not a whole tar');
  }
  for (const entry of read) {
    if (entry.type !== 'file' && entry.type !== 'directory') {
      throw new TarError(`its entry "${entry.name}" is a ${entry.type ?? 'special file'}, not a file or folder`);
    }
    headerName(entry);
  }
  return read.map(({ name, data, mtime }) => ({ name, data, mtime }));
}
