import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { parse, protocol, type PGlite } from '@electric-sql/pglite';
import type { Database } from '../db/client';
import { buildArchive, readArchive, type BackupContents } from './archive';
import { readFacts, type DatabaseFacts } from './facts';
import { BackupError, exists, isBackupFileName, listFiles, writeBackupFile } from './files';
import { packTar } from './tar';
import { readTree } from './tree';

const gzipAsync = promisify(gzip);
/**
 * zlib works on a buffer one output chunk per turn of the event loop: with the default 16 kB a 40 MB data folder
 * takes thousands of turns, and on a busy web process (each turn serving requests) that was minutes. 1 MB: a few.
 */
export const ZLIB_CHUNK = 1 << 20;
/**
 * Level 1: a third of level 6's CPU in the web process (0.3 s against 0.9 s for a fresh 40 MB data folder) for a
 * file some 14% larger.
 */
const GZIP_LEVEL = 1;

/** PGlite's folder on disk (DATA_DIR/pglite), or undefined for a database in memory. */
function folderOnDisk(client: PGlite): string | undefined {
  const dir = client.dataDir;
  return dir && path.isAbsolute(dir) && existsSync(path.join(dir, 'PG_VERSION')) ? dir : undefined;
}

/**
 * PGlite's data folder and its table counts, taken together between two transactions: holding PGlite's transaction
 * lock, no transaction is open and no statement runs (PGlite is one connection, one statement at a time), so the
 * folder is what every committed transaction left (PostgreSQL writes the WAL at each commit; a restore replays it)
 * and nothing half-done. The queries go as the app's own do under that lock (src/db/pglite-query.ts). The folder is
 * read straight from disk, as PGlite's dumpDataDir reads it but some twenty times faster, so other requests wait
 * only for that read; the tar and its compression are made after, unlocked. A database in memory (tests) is dumped.
 */
async function snapshot(client: PGlite): Promise<{ tar: Uint8Array; facts: DatabaseFacts; at: Date }> {
  const folder = folderOnDisk(client);
  const taken = await client._runExclusiveTransaction(async () => {
    const at = new Date();
    const facts = await client._runExclusiveQuery(() =>
      readFacts(async (text) => {
        const replies = await client.execProtocolStream(protocol.serialize.query(text), {});
        return (parse.parseResults(replies, client.parsers)[0]?.rows ?? []) as Record<string, unknown>[];
      }),
    );
    if (folder) return { facts, at, entries: await readTree(folder) };
    const dump = await client.dumpDataDir('none');
    return { facts, at, dumped: new Uint8Array(await dump.arrayBuffer()) };
  });
  const { facts, at } = taken;
  return { tar: taken.entries ? await packTar(taken.entries) : taken.dumped!, facts, at };
}

/** Top-level entries of DATA_DIR that are not data: the database (dumped on its own), the socket, restore scratch. */
const isDataDirInternal = (top: string) => top === 'pglite' || top === 'run' || top.startsWith('.restore-');

/** The files under DATA_DIR besides the database (mail written to files, anything a later feature keeps there). */
async function dataDirFiles(dataDir: string, backupDirs: string[]): Promise<Map<string, Uint8Array>> {
  const root = path.resolve(dataDir);
  if (!(await exists(root))) return new Map();
  const skipped = new Set(
    backupDirs
      .map((d) => path.relative(root, path.resolve(d)))
      .filter((r) => r && !r.startsWith('..') && !path.isAbsolute(r))
      .map((r) => r.split(path.sep).join('/')),
  );
  const skip = (rel: string) =>
    isDataDirInternal(rel.split('/')[0]) ||
    skipped.has(rel) ||
    isBackupFileName(path.posix.basename(rel)) ||
    path.posix.basename(rel).startsWith('.ops-hub-backup-');
  const files = new Map<string, Uint8Array>();
  for (const rel of await listFiles(root, skip)) {
    // A file removed while we walk (mail pruned, a temp file renamed) is simply not in this backup.
    const data = await readFile(path.join(root, rel)).catch(() => null);
    if (data) files.set(rel, data);
  }
  return files;
}

export interface EmbeddedBackup {
  /** The backup file's contents (a zip: src/backups/archive.ts). */
  bytes: Uint8Array;
  createdAt: Date;
  facts: DatabaseFacts;
  files: number;
}

/**
 * A consistent backup of the embedded database (images included: they are rows of `objects`) and of the other files
 * under DATA_DIR (none of `backupDirs`). Works on the running app's own PGlite: it waits only for the transaction in
 * progress, and other requests wait only while the data folder is copied (compression runs after).
 */
export async function createEmbeddedBackup(
  database: Database,
  opts: { dataDir?: string; backupDirs?: string[] } = {},
): Promise<EmbeddedBackup> {
  if (!database.pglite) throw new BackupError('This backup is for the embedded database (PGlite).');
  const { tar, facts, at } = await snapshot(database.pglite);
  const contents: BackupContents = {
    createdAt: at,
    database: await gzipAsync(tar, { level: GZIP_LEVEL, chunkSize: ZLIB_CHUNK }),
    postgres: facts.postgres,
    rows: facts.rows,
    migrations: facts.migrations,
    files: opts.dataDir ? await dataDirFiles(opts.dataDir, opts.backupDirs ?? []) : new Map(),
  };
  return { bytes: buildArchive(contents), createdAt: at, facts, files: contents.files.size };
}

export interface WrittenBackup {
  file: string;
  bytes: number;
  createdAt: Date;
  facts: Pick<DatabaseFacts, 'rows' | 'migrations'>;
  files: number;
}

/**
 * Checks a backup's bytes (they read back as a complete backup, every checksum right) and writes them to `outDir`
 * as `ops-hub-backup-<time>.zip` without ever showing a half-written file under that name (files.ts).
 */
export async function saveEmbeddedBackup(bytes: Uint8Array, outDir: string): Promise<WrittenBackup> {
  const { contents } = readArchive(bytes, 'The backup just made');
  const file = await writeBackupFile(outDir, contents.createdAt, 'zip', (temp) => writeFile(temp, bytes));
  return {
    file,
    bytes: bytes.byteLength,
    createdAt: contents.createdAt,
    facts: { rows: contents.rows, migrations: contents.migrations },
    files: contents.files.size,
  };
}

/** Makes a backup of the open embedded database and writes it to `outDir` (the scheduled job, "Run now"). */
export async function writeEmbeddedBackup(
  database: Database,
  opts: { dataDir?: string; outDir: string },
): Promise<WrittenBackup> {
  const made = await createEmbeddedBackup(database, { dataDir: opts.dataDir, backupDirs: [opts.outDir] });
  return saveEmbeddedBackup(made.bytes, opts.outDir);
}
