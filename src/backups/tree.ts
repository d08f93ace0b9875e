import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { TarEntry } from './tar';

/** Files read at a time (a data folder has a thousand files or more; opening all at once could run out of handles). */
const READ_BATCH = 32;

/** Every folder and file under `root` with the files' bytes, names relative with forward slashes, folders first. */
export async function readTree(root: string): Promise<TarEntry[]> {
  const folders: TarEntry[] = [];
  const files: string[] = [];
  const walk = async (rel: string) => {
    for (const entry of await readdir(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        folders.push({ name: child, mtime: new Date() });
        await walk(child);
      } else if (entry.isFile()) files.push(child);
    }
  };
  await walk('');
  const read: TarEntry[] = [];
  for (let i = 0; i < files.length; i += READ_BATCH) {
    read.push(
      ...(await Promise.all(
        files.slice(i, i + READ_BATCH).map(async (name) => {
          const full = path.join(root, name);
          const [data, info] = await Promise.all([readFile(full), stat(full)]);
          return { name, data, mtime: info.mtime };
        }),
      )),
    );
  }
  return [...folders, ...read];
}
