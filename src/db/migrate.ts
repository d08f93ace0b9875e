import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { Database } from './client';

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** Applies the committed drizzle migrations (only the web process calls this). */
export async function runMigrations(database: Database, migrationsSchema = 'drizzle'): Promise<void> {
  const options = { migrationsFolder, migrationsSchema };
  if (database.kind === 'pglite') await migratePglite(database.db as never, options);
  else await migratePostgres(database.db as never, options);
}
