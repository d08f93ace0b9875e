import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import pg from 'pg';
import { readFacts, type DatabaseFacts } from './facts';
import { BackupError, writeBackupFile } from './files';

/**
 * PostgreSQL backups are PostgreSQL's own: `pg_dump --format=custom` (compressed, one consistent snapshot however
 * busy the database is) and `pg_restore --single-transaction` into an empty database (all or nothing). The client
 * tools must be of the server's major version or newer. The password goes to them in PGPASSWORD, never on the
 * command line (other users of the machine can read command lines).
 */
function libpq(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return {
    dbname: u.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}), PGCONNECT_TIMEOUT: '10' },
  };
}

/** Runs a PostgreSQL client tool; its last lines of stderr become the message when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          err.code === 'ENOENT'
            ? `${command} was not found: install the PostgreSQL client tools (the server's major version or newer).`
            : `${command} could not start: ${err.message}`,
        ),
      ),
    );
    child.once('close', (code) => {
      if (code === 0) return resolve(stdout);
      const said = stderr.trim().split('\n').slice(-6).join('\n') || `exit code ${code}`;
      reject(new BackupError(`${command} failed:\n${said}`));
    });
  });
}

export interface PostgresBackup {
  file: string;
  bytes: number;
  /** Entries of the dump's table of contents (tables, indexes, data …). */
  entries: number;
}

/** The entries of a custom-format dump's table of contents; fails on a file pg_restore cannot read. */
async function tableOfContents(file: string): Promise<number> {
  const list = await run('pg_restore', ['--list', file], process.env);
  return list.split('\n').filter((l) => l && !l.startsWith(';')).length;
}

/** `pg_dump --format=custom` of DATABASE_URL into `outDir` as ops-hub-backup-<time>.dump (temp file, fsync, rename). */
export async function backupPostgres(url: string, outDir: string): Promise<PostgresBackup> {
  const { dbname, env } = libpq(url);
  let entries = 0;
  const file = await writeBackupFile(outDir, new Date(), 'dump', async (temp) => {
    await run('pg_dump', ['--format=custom', `--file=${temp}`, `--dbname=${dbname}`], env);
    entries = await tableOfContents(temp);
  });
  return { file, bytes: (await stat(file)).size, entries };
}

/** Relations in the database's own schemas: 0 for an empty database (as `createdb` makes it). */
async function relationsIn(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg\\_toast%'
        and s.nspname not like 'pg\\_temp%' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  );
  return rows[0]?.n ?? 0;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(`Cannot connect to DATABASE_URL: ${err instanceof Error ? err.message : err}`);
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Restores a pg_dump file into the (empty) database of DATABASE_URL in one transaction, then checks it: counts rows
 * of every table and the applied migrations. A non-empty database is refused before anything runs.
 */
export async function restorePostgres(file: string, url: string): Promise<DatabaseFacts> {
  await tableOfContents(file).catch((err) => {
    throw new BackupError(`${file} is not a usable pg_dump file: ${err instanceof Error ? err.message : err}`);
  });
  const name = new URL(url).pathname.slice(1) || '(default)';
  const existing = await withClient(url, relationsIn);
  if (existing > 0) {
    throw new BackupError(
      `The database ${name} is not empty (${existing} tables, views or sequences). A backup restores only into an ` +
        `empty database: create one (createdb) and point DATABASE_URL at it.`,
    );
  }
  const { dbname, env } = libpq(url);
  await run(
    'pg_restore',
    ['--exit-on-error', '--single-transaction', '--no-owner', '--no-privileges', `--dbname=${dbname}`, file],
    env,
  );
  return withClient(url, (client) =>
    readFacts(async (text) => (await client.query(text)).rows as Record<string, unknown>[]),
  );
}
