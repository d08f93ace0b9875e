/**
 * `npm run backup [-- --out DIR]` and `npm run restore -- FILE` (README § Backups). Same configuration as the web
 * process (DATA_DIR, DATABASE_URL, BACKUP_DIR). Embedded database: while Ops Hub runs the backup comes from it over
 * the control socket (control.ts); when it does not, this command opens the data directory itself. PostgreSQL:
 * pg_dump / pg_restore (postgres.ts).
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../config';
import { openPglite } from '../db/client';
import { claimDataDir, requestBackup } from './control';
import { createEmbeddedBackup, saveEmbeddedBackup } from './embedded';
import { restoreEmbedded } from './restore';
import { summarise } from './facts';
import { BackupError, exists } from './files';
import { backupPostgres, restorePostgres } from './postgres';

const USAGE = 'Usage: npm run backup [-- --out DIR]\n       npm run restore -- FILE';

export interface CliResult {
  code: number;
  message: string;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const otherFiles = (n: number) => `${n} other ${n === 1 ? 'file' : 'files'} of DATA_DIR`;

/** Paths on the command line are the caller's (npm runs scripts in the package folder and says where it was). */
const fromCaller = (p: string, env: Record<string, string | undefined>) =>
  path.resolve(env.INIT_CWD ?? process.cwd(), p);

/** With Ops Hub stopped: holds the data directory (the app cannot start meanwhile), opens it, backs it up. */
async function backupStopped(config: Config, outDir: string): Promise<Uint8Array | null> {
  const pgdata = path.join(path.resolve(config.dataDir), 'pglite');
  if (!(await exists(path.join(pgdata, 'PG_VERSION')))) {
    throw new BackupError(
      `There is no embedded database in ${path.resolve(config.dataDir)} (no pglite folder): nothing to back up. Is DATA_DIR right?`,
    );
  }
  let channel: Awaited<ReturnType<typeof claimDataDir>>;
  try {
    channel = await claimDataDir(config.dataDir, 'backup');
  } catch (err) {
    if (err instanceof BackupError) return null; // Ops Hub started meanwhile: ask it instead
    throw err;
  }
  try {
    const database = await openPglite(config.dataDir);
    try {
      const made = await createEmbeddedBackup(database, {
        dataDir: config.dataDir,
        backupDirs: [outDir, config.backup.dir],
      });
      return made.bytes;
    } finally {
      await database.close();
    }
  } finally {
    await channel.close();
  }
}

async function backup(config: Config, argv: string[], env: Record<string, string | undefined>): Promise<string> {
  const outIndex = argv.indexOf('--out');
  if ((outIndex >= 0 && !argv[outIndex + 1]) || argv.length !== (outIndex >= 0 ? 2 : 0)) throw new UsageError();
  const outDir = outIndex >= 0 ? fromCaller(argv[outIndex + 1], env) : path.resolve(config.backup.dir);
  if (config.databaseUrl) {
    const made = await backupPostgres(config.databaseUrl, outDir);
    return `Wrote ${made.file} (${megabytes(made.bytes)}, pg_dump custom format, ${made.entries} entries).\nRestore it into an empty database with: DATABASE_URL=… npm run restore -- ${made.file}`;
  }
  let how = 'from the running Ops Hub';
  let bytes = await requestBackup(config.dataDir);
  if (!bytes) {
    how = 'Ops Hub was not running';
    bytes = (await backupStopped(config, outDir)) ?? (await requestBackup(config.dataDir));
  }
  if (!bytes) throw new BackupError('Ops Hub started and stopped while the backup began; run it again.');
  const saved = await saveEmbeddedBackup(bytes, outDir);
  return (
    `Wrote ${saved.file} (${megabytes(saved.bytes)}, ${how}): ${summarise(saved.facts)}, ${otherFiles(saved.files)}.\n` +
    `Restore it into an empty data directory with: npm run restore -- ${saved.file}`
  );
}

/** The first bytes of a file say what it is: a zip (embedded database backup) or a pg_dump custom-format file. */
async function kindOf(file: string): Promise<'zip' | 'dump' | 'other'> {
  const handle = await open(file, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new BackupError(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}.`);
  });
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(5), 0, 5, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.subarray(0, 2).toString('latin1') === 'PK') return 'zip';
    if (head.toString('latin1') === 'PGDMP') return 'dump';
    return 'other';
  } finally {
    await handle.close();
  }
}

async function restore(config: Config, argv: string[], env: Record<string, string | undefined>): Promise<string> {
  if (argv.length !== 1 || argv[0].startsWith('--')) throw new UsageError();
  const file = fromCaller(argv[0], env);
  const kind = await kindOf(file);
  if (config.databaseUrl) {
    if (kind === 'zip') {
      throw new BackupError(
        `${file} is a backup of the embedded database: restore it without DATABASE_URL (into an empty DATA_DIR).`,
      );
    }
    const facts = await restorePostgres(file, config.databaseUrl);
    return `Restored ${file} into the database of DATABASE_URL and checked it: ${summarise(facts)}; ${facts.migrations} migrations applied, ${Object.keys(facts.rows).length} tables.`;
  }
  if (kind === 'dump') {
    throw new BackupError(`${file} is a PostgreSQL dump: set DATABASE_URL to an empty database to restore it.`);
  }
  const report = await restoreEmbedded(file, config.dataDir);
  return (
    `Restored ${path.basename(report.file)} (made ${report.createdAt.toISOString()}) into ${report.dataDir} and checked it: ` +
    `${summarise(report.facts)}; every table's rows match the backup (${Object.keys(report.facts.rows).length} tables, ` +
    `${report.facts.migrations} migrations, PostgreSQL ${report.facts.postgres}), ${otherFiles(report.files)}.\n` +
    `Start Ops Hub on it: DATA_DIR=${report.dataDir} npm start`
  );
}

class UsageError extends Error {}

/** Runs `backup …` or `restore …`; returns the exit code and what to print. */
export async function runBackupCommand(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<CliResult> {
  const [command, ...rest] = argv;
  if (command !== 'backup' && command !== 'restore') return { code: 2, message: USAGE };
  try {
    const config = loadConfig(env);
    const message = command === 'backup' ? await backup(config, rest, env) : await restore(config, rest, env);
    return { code: 0, message };
  } catch (err) {
    if (err instanceof UsageError) return { code: 2, message: USAGE };
    if (!(err instanceof BackupError || err instanceof ConfigError)) throw err;
    const outcome = command === 'backup' ? 'No backup was written.' : 'Nothing was restored.';
    return { code: 1, message: `npm run ${command}: ${err.message}\n${outcome}` };
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runBackupCommand(process.argv.slice(2)).then(
    ({ code, message }) => {
      (code === 0 ? console.log : console.error)(message);
      process.exitCode = code;
    },
    (err) => {
      console.error(`npm run ${process.argv[2]} failed:`, err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
