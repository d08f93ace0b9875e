import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';

/** A failure to explain to the person at the terminal: the message is the whole story, no stack trace. */
export class BackupError extends Error {}

const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
const NAME = /^ops-hub-backup-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)(?:-(\d+))?\.(zip|dump)$/;
/** Half-written files: `.ops-hub-backup-….tmp` beside the finished ones, renamed only once complete and on disk. */
const TEMP = /^\.ops-hub-backup-.*\.tmp$/;

export type BackupKind = 'zip' | 'dump';

/** The file name of a backup made at `at`: UTC, sortable, no characters a file system dislikes. */
export function backupFileName(at: Date, kind: BackupKind, suffix = 0): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  if (!STAMP.test(stamp)) throw new Error(`Unexpected timestamp ${stamp}`);
  return `ops-hub-backup-${stamp}${suffix ? `-${suffix}` : ''}.${kind}`;
}

/** True for a finished backup's name (`ops-hub-backup-<UTC time>.zip|.dump`). */
export const isBackupFileName = (name: string) => NAME.test(name);

/** The backups in `dir` (finished ones of the kind), oldest first. */
export async function listBackups(dir: string, kind: BackupKind): Promise<string[]> {
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const key = (name: string) => {
    const m = NAME.exec(name)!;
    return `${m[1]}.${(m[2] ?? '0').padStart(6, '0')}`;
  };
  return names
    .filter((n) => NAME.exec(n)?.[3] === kind)
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** How old a leftover temp file must be before pruning removes it (a backup being written is younger). */
const STALE_TEMP_MS = 6 * 60 * 60_000;

/**
 * Keeps the `keep` newest backups of the kind in `dir` and deletes the older ones, and half-written temp files
 * older than six hours (a crash mid-write). Nothing else in the folder is touched. Returns the deleted names.
 */
export async function pruneBackups(dir: string, keep: number, kind: BackupKind = 'zip', now = new Date()) {
  const all = await listBackups(dir, kind);
  const doomed = all.slice(0, Math.max(0, all.length - keep));
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!TEMP.test(name)) continue;
    const info = await lstat(path.join(dir, name)).catch(() => null);
    if (info?.isFile() && now.getTime() - info.mtimeMs > STALE_TEMP_MS) doomed.push(name);
  }
  for (const name of doomed) await unlink(path.join(dir, name)).catch(() => {});
  return doomed;
}

/** Makes the folder backups go to (0700 when it is new: backups hold password hashes and sessions). */
export async function ensureBackupDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** A temp file beside the final one: `fill` writes it (by path), then it is fsynced; see publishFile. */
export function tempPathIn(dir: string): string {
  return path.join(dir, `.ops-hub-backup-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** Flushes a file (or a folder's entries) to disk. */
export async function fsyncPath(file: string): Promise<void> {
  const handle = await open(file, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a backup so that its final name only ever shows a complete file: the bytes go to a temp file (0600) in
 * the same folder, which is fsynced, then renamed to a name not taken yet (a suffix when two backups share a
 * millisecond), and the folder is fsynced. On any failure the temp file is removed. Returns the final path.
 */
export async function writeBackupFile(
  dir: string,
  at: Date,
  kind: BackupKind,
  fill: (tempPath: string) => Promise<void>,
): Promise<string> {
  await ensureBackupDir(dir);
  const temp = tempPathIn(dir);
  try {
    // Created empty with 0600 first, so the writer (our code or pg_dump) never makes it readable by others.
    await (await open(temp, 'wx', 0o600)).close();
    await fill(temp);
    await chmod(temp, 0o600);
    await fsyncPath(temp);
    for (let suffix = 0; ; suffix++) {
      const final = path.join(dir, backupFileName(at, kind, suffix));
      if (await exists(final)) continue;
      await rename(temp, final);
      await fsyncPath(dir);
      return final;
    }
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

export async function exists(p: string): Promise<boolean> {
  return lstat(p).then(
    () => true,
    () => false,
  );
}

/** Every regular file under `dir` (relative POSIX paths), skipping symbolic links and what `skip` names. */
export async function listFiles(dir: string, skip: (rel: string) => boolean, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (skip(child)) continue;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, skip, child)));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}

/** Flushes every file and folder under `dir` to disk (PGlite runs with fsync off: a restore is made durable here). */
export async function fsyncTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await fsyncTree(p);
    else if (entry.isFile()) await fsyncPath(p);
  }
  await fsyncPath(dir);
}

/** A folder that holds only finished or half-written backups (such a folder does not make a data directory "used"). */
export async function holdsOnlyBackups(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
  return !!entries && entries.every((e) => e.isFile() && (NAME.test(e.name) || TEMP.test(e.name)));
}
