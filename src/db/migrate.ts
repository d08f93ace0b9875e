import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Database } from './client';

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** Applies the committed drizzle migrations (only the web process calls this). */
export async function runMigrations(database: Database, migrationsSchema = 'drizzle'): Promise<void> {
  const options = { migrationsFolder, migrationsSchema };
  if (database.kind === 'pglite') await migratePglite(database.db as never, options);
  else await migrateUnderLock(database.pool!, options);
}

/**
 * Web processes starting together would each apply the same migrations (one fails on CREATE TABLE): one at a
 * time under a session advisory lock, the later ones then find nothing left to apply. A connection of its own,
 * without the pool's statement timeouts (a migration may take long), whose lock dies with it if the process does.
 */
async function migrateUnderLock(
  pool: pg.Pool,
  options: { migrationsFolder: string; migrationsSchema: string },
): Promise<void> {
  const client = new pg.Client({
    ...pool.options,
    statement_timeout: 0,
    query_timeout: 0,
    idle_in_transaction_session_timeout: 0,
  });
  client.on('error', () => {}); // a broken connection fails the query in progress, which fails start-up
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(hashtext('opshub:migrations'))`);
    await migratePostgres(drizzle(client), options);
  } finally {
    await client.end();
  }
}
