import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { queryRows, type Database, type Db } from '../src/db/client';
import * as schema from '../src/db/schema';

/** Runs of each job in this process, per database: PGlite has one session, where advisory locks stack. */
const runningHere = new WeakMap<Database, Set<string>>();

/** The advisory-lock key of a job: one 32-bit key per name, the same in every worker. */
export const lockKey = (job: string) => sql`hashtext(${`opshub:${job}`})`;

export type LockOutcome<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs fn while holding the job's PostgreSQL session advisory lock; { acquired: false } when another
 * worker (or this process) holds it. On PostgreSQL one connection is reserved for lock, bookkeeping
 * (the Db handed to fn) and unlock, so a crashed worker's lock dies with its connection.
 */
export async function withJobLock<T>(
  database: Database,
  job: string,
  fn: (session: Db) => Promise<T>,
): Promise<LockOutcome<T>> {
  const local = runningHere.get(database) ?? new Set<string>();
  runningHere.set(database, local);
  if (local.has(job)) return { acquired: false };
  local.add(job);
  try {
    return database.pool ? await onReservedConnection(database.pool, job, fn) : await onSession(database.db, job, fn);
  } finally {
    local.delete(job);
  }
}

async function onReservedConnection<T>(
  pool: NonNullable<Database['pool']>,
  job: string,
  fn: (session: Db) => Promise<T>,
): Promise<LockOutcome<T>> {
  const reserved = await pool.connect();
  try {
    const session: Db = drizzle(reserved, { schema });
    return await onSession(session, job, fn);
  } finally {
    reserved.release();
  }
}

async function onSession<T>(session: Db, job: string, fn: (session: Db) => Promise<T>): Promise<LockOutcome<T>> {
  const [row] = await queryRows<{ locked: boolean }>(
    session,
    sql`select pg_try_advisory_lock(${lockKey(job)}) as locked`,
  );
  if (!row?.locked) return { acquired: false };
  try {
    return { acquired: true, value: await fn(session) };
  } finally {
    await queryRows(session, sql`select pg_advisory_unlock(${lockKey(job)})`);
  }
}
