import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { openPglite, openPostgres, type Database } from '../../src/db/client';
import { databaseUrl, onServer, testDatabasePrefix } from './db-template';
import { tracked } from './open-databases';

let pgliteTemplate: Blob | undefined;

/** The migrated PGlite data folder the global setup wrote for this run (tests/helpers/global-setup.ts). */
function loadPgliteTemplate(): Blob {
  pgliteTemplate ??= new Blob([readFileSync(fromGlobalSetup('TEST_PGLITE_TEMPLATE'))]);
  return pgliteTemplate;
}

/** A migrated PGlite database in memory, loaded from the run's template. */
function freshPglite(): Promise<Database> {
  return openPglite(undefined, loadPgliteTemplate());
}

/** An environment variable the global setup sets for the test workers. */
function fromGlobalSetup(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through vitest (its global setup sets it)`);
  return value;
}

/**
 * A fresh database on the PostgreSQL server of TEST_DATABASE_URL, copied from the run's migrated template,
 * dropped on close. (A database, not a schema: drizzle-kit's SQL names the "public" schema.)
 */
async function freshPostgres(url: string): Promise<Database> {
  const name = `${testDatabasePrefix(Number(fromGlobalSetup('TEST_RUN_PID')))}${randomBytes(6).toString('hex')}`;
  await onServer(url, [`create database ${name} template ${fromGlobalSetup('TEST_PG_TEMPLATE')}`]);
  const database = openPostgres(databaseUrl(url, name), { max: 5 });
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      await onServer(url, [`drop database if exists ${name} with (force)`]);
    },
  };
}

export const usingPostgres = () => !!process.env.TEST_DATABASE_URL;

/** PGlite in memory by default; a fresh database on TEST_DATABASE_URL when set. Both already migrated. */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  return tracked(url ? await freshPostgres(url) : await freshPglite());
}
