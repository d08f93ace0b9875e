import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPglite, openPostgres } from '../../src/db/client';
import { migrationsFolder, runMigrations } from '../../src/db/migrate';
import { buildsDir, inUseByLiveRuns, isAlive, markInUse } from './run-dirs';

/**
 * Databases a test run makes on the PostgreSQL server: its template, opshub_tpl_PID, and one per test file,
 * opshub_t_PID_HEX, PID being the run's (its global setup's) process id, so runs at once never collide and a
 * later run can tell which were left by a killed run.
 */
export const templateName = (runPid: number) => `opshub_tpl_${runPid}`;
export const testDatabasePrefix = (runPid: number) => `opshub_t_${runPid}_`;
const runDatabase = /^opshub_(?:tpl|t)_(\d+)(?:_|$)/;
/** Test databases named before runs named theirs (opshub_t_HEX): no run makes them any more. */
const unnamedRunDatabase = /^opshub_t_[0-9a-f]{12}$/;

/** The URL of another database on the same server. */
export function databaseUrl(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** Runs statements on the server's maintenance connection (the database of TEST_DATABASE_URL). */
export async function onServer(url: string, statements: string[]): Promise<void> {
  const admin = openPostgres(url, { max: 1 });
  try {
    for (const statement of statements) await admin.pool!.query(statement);
  } finally {
    await admin.close();
  }
}

async function databaseNames(url: string): Promise<string[]> {
  const admin = openPostgres(url, { max: 1 });
  try {
    const query = `select datname from pg_database where datname like 'opshub\\_%'`;
    const { rows } = await admin.pool!.query<{ datname: string }>(query);
    return rows.map((r) => r.datname);
  } finally {
    await admin.close();
  }
}

/** Drops the databases of runs that were killed before their teardown (and, when given, all of run `own`). */
export async function dropRunDatabases(url: string, own?: number): Promise<void> {
  const names = (await databaseNames(url)).filter((name) => {
    const pid = Number(runDatabase.exec(name)?.[1]);
    return (pid && (pid === own || !isAlive(pid))) || unnamedRunDatabase.test(name);
  });
  await onServer(
    url,
    names.map((name) => `drop database if exists ${name} with (force)`),
  );
}

/** Creates and migrates this run's template database; test files copy it (CREATE DATABASE … TEMPLATE). */
export async function makePostgresTemplate(url: string, runPid: number): Promise<string> {
  const name = templateName(runPid);
  await onServer(url, [`drop database if exists ${name} with (force)`, `create database ${name}`]);
  const template = openPostgres(databaseUrl(url, name), { max: 1 });
  try {
    await runMigrations(template);
  } finally {
    await template.close(); // CREATE DATABASE … TEMPLATE needs no one connected to it
  }
  return name;
}

const root = path.resolve(import.meta.dirname, '../..');

/** What a migrated PGlite data folder depends on: the migrations, and the PGlite build that wrote it. */
function pgliteTemplateKey(): string {
  const hash = createHash('sha256');
  const files = readdirSync(migrationsFolder, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  for (const file of files.map((f) => path.join(f.parentPath, f.name)).sort()) {
    hash.update(path.relative(migrationsFolder, file)).update(readFileSync(file));
  }
  hash.update(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}

async function migratedPgliteTar(): Promise<Buffer> {
  const database = await openPglite();
  try {
    await runMigrations(database);
    return Buffer.from(await (await database.dump!()).arrayBuffer());
  } finally {
    await database.close();
  }
}

/**
 * The migrated PGlite data folder (a tar) test files load, tests/.build/pglite-KEY.tar: made when the migrations
 * or PGlite changed, else the one an earlier run made. Written under a temporary name and renamed, so a
 * concurrent run never reads half a file; templates of other keys that no live run uses are deleted.
 */
export async function pgliteTemplate(runDir: string): Promise<string> {
  const file = path.join(buildsDir, `pglite-${pgliteTemplateKey()}.tar`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, await migratedPgliteTar());
    renameSync(partial, file);
  }
  markInUse(runDir, 'pglite', file);
  const inUse = inUseByLiveRuns('pglite');
  for (const name of readdirSync(buildsDir)) {
    const other = path.join(buildsDir, name);
    const partialOfDeadRun = /\.(\d+)\.partial$/.exec(name);
    const stale = /^pglite-\w+\.tar$/.test(name) && other !== file && !inUse.has(other);
    if (stale || (partialOfDeadRun && !isAlive(Number(partialOfDeadRun[1])))) rmSync(other, { force: true });
  }
  return file;
}
