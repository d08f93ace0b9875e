import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { usePreparedQueries } from './pglite-query';
import postgres from 'postgres';
import * as schema from './schema';

/** One database type for both drivers; services only ever see this. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The postgres.js client (real PostgreSQL only), for work that needs one reserved connection. */
  sql?: postgres.Sql;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a copy of the whole database (tests clone a migrated template from it). */
  dump?: () => Promise<Blob>;
}

/** Runs a raw query and returns its rows, whichever driver answers. */
export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** Opens a real PostgreSQL through postgres.js. */
export function openPostgres(url: string, options: postgres.Options<{}> = {}): Database {
  const sql = postgres(url, { max: 10, onnotice: () => {}, ...options });
  preparedByDefault(sql);
  const db = drizzlePostgres(sql, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    sql,
    ping: async () => void (await sql`select 1`),
    close: () => sql.end({ timeout: 5 }),
  };
}

/**
 * drizzle runs every query it was not given a name for unprepared. postgres.js then needs two round trips
 * per query (describe, then execute) and PostgreSQL plans it anew each time. Prepared once per connection
 * instead, a query is one round trip on a cached plan. Transactions keep drizzle's default.
 */
function preparedByDefault(sql: postgres.Sql): void {
  const unsafe = sql.unsafe.bind(sql);
  sql.unsafe = ((query: string, params?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) =>
    unsafe(query, params, { ...options, prepare: true })) as typeof sql.unsafe;
}

/** Opens the embedded PGlite: in memory when dataDir is undefined, else in DATA_DIR/pglite. */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  let dir: string | undefined;
  if (dataDir) {
    dir = path.resolve(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  const client = await PGlite.create({ dataDir: dir, loadDataDir, extensions: { pg_trgm } });
  usePreparedQueries(client);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
    dump: () => client.dumpDataDir('none'),
  };
}

/** DATABASE_URL set → PostgreSQL; unset → PGlite in DATA_DIR. */
export function openDatabase(config: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return config.databaseUrl ? Promise.resolve(openPostgres(config.databaseUrl)) : openPglite(config.dataDir);
}
