import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { openPglite, type Database } from '../db/client';
import { readArchive, type BackupContents } from './archive';
import { claimDataDir, type ControlChannel } from './control';
import { ZLIB_CHUNK } from './embedded';
import { readFacts, type DatabaseFacts } from './facts';
import { BackupError, exists, fsyncPath, fsyncTree, holdsOnlyBackups } from './files';
import { packTar, readTar, TarError } from './tar';

const gunzipAsync = promisify(gunzip);

/**
 * A data directory restores only when it is empty: missing, or holding nothing but folders of backups (the default
 * BACKUP_DIR is DATA_DIR/backups) and the control socket's folder.
 */
async function assertEmpty(target: string): Promise<void> {
  const entries = await readdir(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const used: string[] = [];
  for (const name of entries) {
    if (name === 'run' || (await holdsOnlyBackups(path.join(target, name)))) continue;
    used.push(name);
  }
  if (used.length) {
    throw new BackupError(
      `The data directory ${target} is not empty (it holds ${used.slice(0, 5).join(', ')}${used.length > 5 ? ', …' : ''}). ` +
        'A backup restores only into an empty data directory: move this one aside or set DATA_DIR to a new folder.',
    );
  }
}

/**
 * The dump as PGlite will load it: read, every entry checked (none outside the data folder, no links), and written
 * anew from those entries, so PGlite reads only what was checked. (Given something else, PGlite's own reader fails
 * in a way that leaves a promise rejected unhandled.)
 */
async function checkedTar(dump: Uint8Array, file: string): Promise<Buffer> {
  const refused = (why: string) =>
    new BackupError(`The database dump in ${file} is not a PostgreSQL data folder (${why}).`);
  const entries = await readTar(dump).catch((err) => {
    throw err instanceof TarError ? refused(err.message) : err;
  });
  if (!entries.some((e) => e.name === 'PG_VERSION')) throw refused('it has no PG_VERSION');
  return packTar(entries);
}

export interface RestoreReport {
  file: string;
  dataDir: string;
  createdAt: Date;
  facts: DatabaseFacts;
  files: number;
}

/** Opens the restored database in `staging`, runs the sanity queries and compares every table with the manifest. */
async function openAndCheck(staging: string, tar: Uint8Array, expected: BackupContents): Promise<DatabaseFacts> {
  let database: Database;
  try {
    database = await openPglite(staging, new Blob([tar as Uint8Array<ArrayBuffer>]));
  } catch (err) {
    throw new BackupError(`The database in the backup does not open (${err instanceof Error ? err.message : err}).`);
  }
  try {
    const facts = await readFacts(
      async (text) => (await database.pglite!.query(text)).rows as Record<string, unknown>[],
    );
    const differences = Object.entries(expected.rows)
      .filter(([table, n]) => facts.rows[table] !== n)
      .map(([table, n]) => `${table}: ${facts.rows[table] ?? 'missing'} rows, the backup says ${n}`);
    if (facts.migrations !== expected.migrations) {
      differences.push(`${facts.migrations} migrations, the backup says ${expected.migrations}`);
    }
    if (differences.length) {
      throw new BackupError(`The restored database does not match the backup (${differences.slice(0, 3).join('; ')}).`);
    }
    return facts;
  } finally {
    await database.close();
  }
}

/**
 * Restores a backup file into an empty data directory: checks the file (checksums), builds the database in a scratch
 * folder inside it, opens it and compares the row count of every table with the backup's, flushes it to disk, and
 * only then moves it (and the backed-up files) into place. On any failure nothing is left behind: the scratch folder
 * goes, and so does the data directory when the restore made it. The data directory is held (control socket) all
 * along, so the app cannot start on it half-restored.
 */
export async function restoreEmbedded(file: string, dataDir: string): Promise<RestoreReport> {
  const bytes = await readFile(file).catch((err: NodeJS.ErrnoException) => {
    throw new BackupError(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`);
  });
  const { contents } = readArchive(bytes, path.basename(file));
  const target = path.resolve(dataDir);
  await assertEmpty(target);
  const madeTarget = !(await exists(target));
  await mkdir(target, { recursive: true, mode: 0o700 });
  const staging = path.join(target, `.restore-${randomBytes(4).toString('hex')}`);
  const moved: string[] = [];
  let channel: ControlChannel | undefined;
  let done = false;
  try {
    channel = await claimDataDir(target, 'restore');
    await assertEmpty(target); // again, now that nothing else can start on it
    await mkdir(staging, { mode: 0o700 });
    const tar = await gunzipAsync(contents.database, { chunkSize: ZLIB_CHUNK }).catch(() => {
      throw new BackupError(`The database dump in ${path.basename(file)} is damaged.`);
    });
    const facts = await openAndCheck(staging, await checkedTar(tar, path.basename(file)), contents);
    for (const [rel, data] of contents.files) {
      const to = path.join(staging, ...rel.split('/'));
      await mkdir(path.dirname(to), { recursive: true });
      await writeFile(to, data, { mode: 0o600 });
    }
    await fsyncTree(staging);
    for (const top of await readdir(staging)) {
      const to = path.join(target, top);
      if (await exists(to)) await rmdir(to); // an empty leftover folder; a full one fails the restore
      await rename(path.join(staging, top), to);
      moved.push(top);
    }
    await rmdir(staging);
    await fsyncPath(target);
    done = true;
    return {
      file: path.resolve(file),
      dataDir: target,
      createdAt: contents.createdAt,
      facts,
      files: contents.files.size,
    };
  } catch (err) {
    for (const top of moved) await rm(path.join(target, top), { recursive: true, force: true });
    await rm(staging, { recursive: true, force: true });
    throw err;
  } finally {
    await channel?.close();
    if (!done && madeTarget) await rmdir(target).catch(() => {});
  }
}
