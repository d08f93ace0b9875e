import { createHash } from 'node:crypto';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { z } from 'zod';
import { BackupError } from './files';

/**
 * The backup file of the embedded database: a zip holding
 * - `manifest.json`: what it is, when it was made, the row count of every table and a SHA-256 of every entry;
 * - `pglite.tar.gz`: PGlite's data folder as a gzipped tar (tar.ts; stored as is: it is compressed already);
 * - `files/<path>`: the other files under DATA_DIR (mail written to files when SMTP_URL is unset), compressed.
 * Images are rows of the `objects` table, so they are inside the database dump.
 */
export const FORMAT = 'ops-hub-backup';
export const FORMAT_VERSION = 1;
const DATABASE_ENTRY = 'pglite.tar.gz';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.number().int(),
  createdAt: z.string(),
  database: z.object({
    kind: z.literal('pglite'),
    postgres: z.string(),
    bytes: z.number().int(),
    sha256: z.string(),
  }),
  /** Rows of every table of the public schema when the dump was taken (same lock as the dump). */
  rows: z.record(z.string(), z.number().int()),
  /** Applied migrations (drizzle.__drizzle_migrations). */
  migrations: z.number().int(),
  files: z.array(z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() })),
});

export type Manifest = z.infer<typeof manifestSchema>;

export interface BackupContents {
  createdAt: Date;
  /** gzip-compressed tar of the PGlite data folder. */
  database: Uint8Array;
  postgres: string;
  rows: Record<string, number>;
  migrations: number;
  /** Files under DATA_DIR by relative POSIX path. */
  files: Map<string, Uint8Array>;
}

/** Builds the zip of a backup. */
export function buildArchive(contents: BackupContents): Uint8Array {
  const manifest: Manifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt: contents.createdAt.toISOString(),
    database: {
      kind: 'pglite',
      postgres: contents.postgres,
      bytes: contents.database.byteLength,
      sha256: sha256(contents.database),
    },
    rows: contents.rows,
    migrations: contents.migrations,
    files: [...contents.files].map(([p, bytes]) => ({ path: p, bytes: bytes.byteLength, sha256: sha256(bytes) })),
  };
  const entries: Zippable = {
    'manifest.json': strToU8(`${JSON.stringify(manifest, null, 2)}\n`),
    [DATABASE_ENTRY]: [contents.database, { level: 0 }],
  };
  for (const [p, bytes] of contents.files) entries[`files/${p}`] = bytes;
  return zipSync(entries, { level: 6, mtime: contents.createdAt });
}

/** A relative path inside the data directory: no absolute path, no `..`, no empty or odd segment. */
export function isSafeRelativePath(p: string): boolean {
  if (!p || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..') && path.posix.normalize(p) === p;
}

/**
 * Reads and checks a backup file: a zip with our manifest, every entry present with its size and SHA-256. A
 * truncated, corrupt or foreign file is a BackupError that says so (nothing has been written yet at this point).
 */
export function readArchive(bytes: Uint8Array, name: string): { manifest: Manifest; contents: BackupContents } {
  const corrupt = (why: string) => new BackupError(`${name} is not a usable Ops Hub backup: ${why}.`);
  if (bytes.byteLength < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw corrupt('it is not a zip file (an Ops Hub backup of the embedded database is one)');
  }
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch (err) {
    throw corrupt(
      `the zip cannot be read (${err instanceof Error ? err.message : err}); the file is truncated or damaged`,
    );
  }
  const manifestBytes = entries['manifest.json'];
  if (!manifestBytes) throw corrupt('it has no manifest.json');
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(strFromU8(manifestBytes)));
  } catch {
    throw corrupt('its manifest.json is damaged or of another format');
  }
  if (manifest.version > FORMAT_VERSION) {
    throw corrupt(`it was written by a newer Ops Hub (format ${manifest.version}); update Ops Hub first`);
  }
  const database = entries[DATABASE_ENTRY];
  if (!database || database.byteLength !== manifest.database.bytes || sha256(database) !== manifest.database.sha256) {
    throw corrupt('the database dump is missing or damaged (its checksum does not match)');
  }
  const files = new Map<string, Uint8Array>();
  for (const f of manifest.files) {
    const data = entries[`files/${f.path}`];
    if (!isSafeRelativePath(f.path)) throw corrupt(`it names a file outside the data directory (${f.path})`);
    if (!data || data.byteLength !== f.bytes || sha256(data) !== f.sha256) throw corrupt(`${f.path} is damaged`);
    files.set(f.path, data);
  }
  return {
    manifest,
    contents: {
      createdAt: new Date(manifest.createdAt),
      database,
      postgres: manifest.database.postgres,
      rows: manifest.rows,
      migrations: manifest.migrations,
      files,
    },
  };
}
