import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { dayOf, hourStart } from './periods';
import { rollupStart } from './rollup';

/** Rows per delete statement: each commits on its own, so no lock is held for long. */
export const PRUNE_BATCH = 5_000;
/** Servers whose raw checks one statement looks through (via the (server_id, checked_at) index). */
const SERVERS_PER_PASS = 500;
const DAY_MS = 86_400_000;

export interface PruneOptions {
  now: Date;
  historyDays: number;
  rollupDays: number;
  batchSize?: number;
  signal?: AbortSignal;
}

export interface PruneResult {
  raw: number;
  rollups: number;
  daily: number;
  rounds: number;
  /** Delete statements run. */
  batches: number;
}

/** Deletes, `batch` rows a statement, what `select ctid … limit` finds, until a statement deletes fewer. */
async function deleteInBatches(
  db: Db,
  table: SQL,
  where: SQL,
  batch: number,
  tally: { batches: number },
  signal?: AbortSignal,
): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    const rows = await queryRows(
      db,
      sql`delete from ${table} where ctid = any(array(select ctid from ${table} where ${where} limit ${batch}))
          returning 1`,
    );
    tally.batches++;
    total += rows.length;
    if (rows.length < batch) break;
  }
  return total;
}

/**
 * Raw checks before `cutoff`, a few hundred servers at a time so each statement walks the (server_id,
 * checked_at) index rather than the whole table (there is no index on checked_at alone).
 */
async function pruneRaw(db: Db, cutoff: Date, batch: number, tally: { batches: number }, signal?: AbortSignal) {
  let total = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  while (!signal?.aborted) {
    const ids = await queryRows<{ id: string }>(
      db,
      sql`select id from servers where id > ${after}::uuid order by id limit ${SERVERS_PER_PASS}`,
    );
    if (ids.length === 0) break;
    after = ids[ids.length - 1].id;
    const list = `{${ids.map((r) => r.id).join(',')}}`;
    const where = sql`server_id = any(${list}::uuid[]) and checked_at < ${cutoff.toISOString()}::timestamptz`;
    total += await deleteInBatches(db, sql`health_checks`, where, batch, tally, signal);
  }
  return total;
}

/**
 * Keeps raw checks (and rounds) of the last historyDays, hourly and daily rollups of the last rollupDays (the
 * hour and the UTC day holding the cutoff stay). Raw checks go only where they are rolled up for good: never at
 * or after rollupStart (the first hour the next rollup recomputes), so no hour is recomputed from part of its rows.
 */
export async function pruneHealthHistory(db: Db, opts: PruneOptions): Promise<PruneResult> {
  const batch = opts.batchSize ?? PRUNE_BATCH;
  const tally = { batches: 0 };
  const historyCutoff = new Date(opts.now.getTime() - opts.historyDays * DAY_MS);
  const rollupCutoff = new Date(opts.now.getTime() - opts.rollupDays * DAY_MS);
  const start = await rollupStart(db);
  const rawCutoff = start && start < historyCutoff ? start : historyCutoff;
  const raw = start ? await pruneRaw(db, rawCutoff, batch, tally, opts.signal) : 0;
  const rounds = await deleteInBatches(
    db,
    sql`health_rounds`,
    sql`slot_at < ${historyCutoff.toISOString()}::timestamptz`,
    batch,
    tally,
    opts.signal,
  );
  const rollups = await deleteInBatches(
    db,
    sql`health_rollups`,
    sql`hour < ${hourStart(rollupCutoff).toISOString()}::timestamptz`,
    batch,
    tally,
    opts.signal,
  );
  const daily = await deleteInBatches(
    db,
    sql`health_daily`,
    sql`day < ${dayOf(rollupCutoff)}::date`,
    batch,
    tally,
    opts.signal,
  );
  return { raw, rollups, daily, rounds, batches: tally.batches };
}
