import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { ConfigError } from '../config';
import { GuardedPool } from './pg-pool';
import { enablePreparedQueries } from './pglite-query';
import * as schema from './schema';

/**
 * One database type for both drivers; services only ever see this. A transaction (PgTransaction extends
 * PgDatabase) is a Db too, so a service called inside `db.transaction` takes `tx` as it is.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The connection pool (real PostgreSQL only), for work that needs one reserved connection. */
  pool?: pg.Pool;
  /** The embedded client (PGlite only), for LISTEN (mail/listener.ts). */
  pglite?: PGlite;
  ping(): Promise<void>;
  /** Waits up to timeoutMs (5 s) for connections in use to be released, then closes them anyway. */
  close(timeoutMs?: number): Promise<void>;
  /** PGlite only: a copy of the whole database (tests clone a migrated template from it). */
  dump?: () => Promise<Blob>;
}

/** Runs a raw query and returns its rows, whichever driver answers. */
export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** Bounds on every PostgreSQL connection, so an unreachable database costs a request seconds, not forever. */
const postgresTimeouts = {
  /** Connecting, and waiting for a free connection of the pool. */
  connectionTimeoutMillis: 5_000,
  /** The server cancels a longer statement (57014). */
  statement_timeout: 8_000,
  /** No answer at all (a frozen server, a dead network): the client gives up. */
  query_timeout: 10_000,
  /** A transaction left open by a stuck request gives its locks back. */
  idle_in_transaction_session_timeout: 30_000,
} satisfies pg.PoolConfig;

/**
 * Settings of every connection. JIT off: our queries are short, and a misestimate (a row count the planner cannot
 * know, such as a period start computed in the query) pushed a 1 ms count over jit_above_cost, where compiling it
 * took 20–90 ms: a non-admin's dashboard was 10× an admin's. A DATABASE_URL's own `options` take precedence.
 */
const postgresSessionSettings = { options: '-c jit=off' } satisfies pg.PoolConfig;

/** Opens a real PostgreSQL through node-postgres; options.max is the pool size (DATABASE_POOL_MAX). */
export function openPostgres(url: string, options: pg.PoolConfig = {}): Database {
  if (new URL(url).searchParams.has('max')) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_URL must not set ?max= (set DATABASE_POOL_MAX, the connections per process)',
    );
  }
  const pool = new GuardedPool({
    connectionString: url,
    max: 10,
    ...postgresTimeouts,
    ...postgresSessionSettings,
    ...options,
  });
  const db: Db = drizzlePostgres(pool, { schema });
  return {
    db,
    kind: 'postgres',
    pool,
    ping: async () => void (await pool.query('select 1')),
    close: (timeoutMs = 5_000) => pool.endWithin(timeoutMs),
  };
}

/** Opens the embedded PGlite: in memory when dataDir is undefined, else in DATA_DIR/pglite. */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  let dir: string | undefined;
  if (dataDir) {
    dir = path.resolve(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  const client = await PGlite.create({ dataDir: dir, loadDataDir, extensions: { pg_trgm } });
  enablePreparedQueries(client);
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    pglite: client,
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
    dump: () => client.dumpDataDir('none'),
  };
}

/** DATABASE_URL set → PostgreSQL; unset → PGlite in DATA_DIR. */
export async function openDatabase(config: {
  databaseUrl?: string;
  databasePoolMax: number;
  dataDir: string;
}): Promise<Database> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, { max: config.databasePoolMax })
    : openPglite(config.dataDir);
}
