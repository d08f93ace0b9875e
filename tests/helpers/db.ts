import { randomBytes } from 'node:crypto';
import { openPglite, openPostgres, type Database } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';

let template: Promise<Blob> | undefined;

/** A migrated PGlite database, cloned from a template migrated once per test process. */
async function freshPglite(): Promise<Database> {
  template ??= (async () => {
    const db = await openPglite();
    await runMigrations(db);
    const blob = await db.dump!();
    await db.close();
    return blob;
  })();
  return openPglite(undefined, await template);
}

/**
 * A fresh database on the PostgreSQL server of TEST_DATABASE_URL, migrated, dropped on close.
 * (A database, not a schema: drizzle-kit's SQL names the "public" schema.)
 */
async function freshPostgres(url: string): Promise<Database> {
  const name = `opshub_t_${randomBytes(6).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.pool!.query(`create database ${name}`);
  await admin.close();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = openPostgres(target.toString(), { max: 5 });
  await runMigrations(database);
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      const cleanup = openPostgres(url, { max: 1 });
      await cleanup.pool!.query(`drop database if exists ${name} with (force)`);
      await cleanup.close();
    },
  };
}

export const usingPostgres = () => !!process.env.TEST_DATABASE_URL;

/** PGlite in memory by default; a fresh schema on TEST_DATABASE_URL when set. */
export function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  return url ? freshPostgres(url) : freshPglite();
}
