import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { inArray, sql } from 'drizzle-orm';
import type { Config } from '../config';
import { type Db, queryRows } from '../db/client';
import { AppError } from '../http/errors';
import { servers } from '../db/schema';
import { checksOfMany, leaveRound, loadOpenWindows, probeServer, type ServerRow } from './health';
import type { WindowRule } from './maintenance-window';
import type { CheckSpec } from './probes';
import { probeContext } from './probes';
import { PROBE_TIMEOUT_MS, type StatusChange } from './schemas';

/*
 * A round shared by every worker (README § Decisions): each tick inserts its health_rounds row and every worker
 * claims batches of due servers from health_schedule with FOR UPDATE SKIP LOCKED, each claim under a lease. A
 * server probed for the round gets round_at = the round's slot in the probe's own transaction, so it is probed
 * once per round; a crashed worker's claims are claimed again when their lease ends. No job engine.
 */

/**
 * How long a claim holds. A claimed server waits at most for one batch ahead of it (concurrency lanes, one
 * server each) and its own probe; each probe runs all its checks at once, each bounded by the 3 s timeout (an
 * http check following 3 redirects: 4 × 3 s), plus its database writes: well under a minute. Two minutes
 * leave margin for a slow database, and a crashed worker's servers are still checked within a 5-minute tick.
 */
export const ROUND_LEASE_MS = 2 * 60_000;

/** A worker's name in claimed_by: host, process and a per-scheduler suffix (two schedulers in one test process). */
export const newWorkerId = () => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** The round a cron tick belongs to: its fire time floored to the minute (every worker agrees on it). */
export const slotOf = (firedAt: Date) => new Date(Math.floor(firedAt.getTime() / 60_000) * 60_000);

export interface RoundOptions {
  slotAt: Date;
  workerId: string;
  /** Probes at a time in this worker (default config.health.concurrency). */
  concurrency?: number;
  leaseMs?: number;
  timeoutMs?: number;
  /** Once aborted, no new probe starts; the servers this worker claimed but did not probe are released. */
  signal?: AbortSignal;
  now?: () => Date;
  /**
   * Before the share ends, wait for the round's servers other workers still hold and claim them when their lease
   * ends (a killed worker's claims are finished in this run). Scheduled shares do; one by hand does not.
   */
  waitForOthers?: boolean;
  /** How the share waits for a lease to end (tests pass one that moves their fake clock). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RoundShare {
  /** The round the share ended in (a newer one when it joined it). */
  slotAt: Date;
  /** The share moved on to a newer round that started while it ran. */
  joinedNewer: boolean;
  /** Servers this worker probed for the round. */
  checked: number;
  online: number;
  warning: number;
  offline: number;
  /** Probed, a check failed, but not yet offline (fewer than HEALTH_CHECK_FAILURES rounds in a row). */
  failing: number;
  changes: StatusChange[];
  /** Servers an earlier round still held (lease valid) when this one started: skipped, not waited for. */
  stillClaimed: number;
  /** Servers whose probe could not be stored (the error of the first): left for the next round. */
  errors: number;
  firstError: string | null;
  /** Claimed but not probed because the signal stopped the round (released for others). */
  left: number;
  durationMs: number;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Servers due for the round at `slot` (an SQL timestamptz expression): not in manual maintenance, not probed for it. */
const dueFor = (slot: ReturnType<typeof sql>) =>
  sql`select 1 from health_schedule hs join servers s on s.id = hs.server_id
      where s.status <> 'maintenance' and (hs.round_at is null or hs.round_at < ${slot})`;

/** A slot no later than the database's clock: a worker whose clock runs ahead must not start a round in the future. */
async function clampSlot(db: Db, slotAt: Date): Promise<Date> {
  const [row] = await queryRows<{ slot: Date | string }>(
    db,
    sql`select least(${ts(slotAt)}, date_trunc('milliseconds', now())) as slot`,
  );
  return new Date(row.slot);
}

/** Inserts the round's row (the first worker of the tick does; later ones find it). */
async function startRound(db: Db, slotAt: Date): Promise<void> {
  await queryRows(
    db,
    sql`insert into health_rounds (slot_at, due)
        select ${ts(slotAt)}, count(*)::int from health_schedule hs join servers s on s.id = hs.server_id
        where s.status <> 'maintenance' and (hs.round_at is null or hs.round_at < ${ts(slotAt)})
        on conflict (slot_at) do nothing`,
  );
}

/** Servers still claimed by an earlier round's worker (its lease valid, taken before this slot). */
async function countStillClaimed(db: Db, slotAt: Date, now: Date, leaseMs: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from health_schedule
        where lease_until >= ${ts(now)} and lease_until - make_interval(secs => ${leaseMs / 1000}) < ${ts(slotAt)}`,
  );
  return row?.n ?? 0;
}

/**
 * Claims up to `limit` due servers for this worker: not in manual maintenance, not probed for this round, not
 * under a valid lease; rows other workers are claiming are skipped. Nothing once a newer round has started.
 */
export async function claimDue(
  db: Db,
  o: { slotAt: Date; workerId: string; limit: number; now: Date; leaseMs: number },
): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with due as (
          select hs.server_id from health_schedule hs join servers s on s.id = hs.server_id
          where s.status <> 'maintenance'
            and (hs.round_at is null or hs.round_at < ${ts(o.slotAt)})
            and (hs.lease_until is null or hs.lease_until < ${ts(o.now)})
            and not exists (select 1 from health_rounds r where r.slot_at > ${ts(o.slotAt)})
          order by hs.round_at asc nulls first
          limit ${o.limit}
          for update of hs skip locked
        )
        update health_schedule h
        set lease_until = ${ts(new Date(o.now.getTime() + o.leaseMs))}, claimed_by = ${o.workerId}
        from due where h.server_id = due.server_id
        returning h.server_id as id`,
  );
  return rows.map((r) => r.id);
}

/** The newest round started after `slotAt` (Run Health Check, or the next tick while this one overran), if any. */
async function newerRound(db: Db, slotAt: Date): Promise<Date | null> {
  const [row] = await queryRows<{ slot: Date | string | null }>(
    db,
    sql`select max(slot_at) as slot from health_rounds where slot_at > ${ts(slotAt)}`,
  );
  return row?.slot ? new Date(row.slot) : null;
}

/** When the first lease of another worker on a server still due for this round ends (null: none held). */
async function othersLeaseEnd(db: Db, slotAt: Date, workerId: string, now: Date): Promise<Date | null> {
  const [row] = await queryRows<{ until: Date | string | null }>(
    db,
    sql`select min(hs.lease_until) as until from health_schedule hs join servers s on s.id = hs.server_id
        where s.status <> 'maintenance' and (hs.round_at is null or hs.round_at < ${ts(slotAt)})
          and hs.lease_until >= ${ts(now)} and hs.claimed_by is distinct from ${workerId}`,
  );
  return row?.until ? new Date(row.until) : null;
}

/**
 * The round a share started by hand (Run Health Check, "Run now") takes part in: the latest one while it is not
 * finished and still has servers due or claimed, else a new round now. Each click does not start another full
 * round. (A finished round stays finished: servers added after it wait for the next one.)
 */
export async function roundForHand(db: Db): Promise<{ slotAt: Date; joined: boolean }> {
  const [row] = await queryRows<{ slot: Date | string | null }>(
    db,
    sql`select r.slot_at as slot from health_rounds r
        where r.slot_at = (select max(slot_at) from health_rounds) and r.finished_at is null
          and exists (${dueFor(sql`r.slot_at`)})`,
  );
  return row?.slot ? { slotAt: new Date(row.slot), joined: true } : { slotAt: new Date(), joined: false };
}

export interface RoundFigures {
  checked: number;
  online: number;
  warning: number;
  offline: number;
}

/** What the round found so far: the servers probed for it, by their status now. */
export async function roundFigures(db: Db, slotAt: Date): Promise<RoundFigures> {
  const [row] = await queryRows<RoundFigures>(
    db,
    sql`select count(*)::int as checked,
          (count(*) filter (where s.status = 'online'))::int as online,
          (count(*) filter (where s.status = 'warning'))::int as warning,
          (count(*) filter (where s.status = 'offline'))::int as offline
        from health_schedule hs join servers s on s.id = hs.server_id
        where hs.round_at = ${ts(slotAt)} and s.status <> 'maintenance'`,
  );
  return row;
}

/** Gives back claims this worker will not probe (shutdown), so another worker need not wait for the lease. */
async function releaseClaims(db: Db, ids: string[], workerId: string): Promise<void> {
  if (!ids.length) return;
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await queryRows(
    db,
    sql`update health_schedule set lease_until = null, claimed_by = null
        where claimed_by = ${workerId} and server_id in (${list})`,
  );
}

/** Stamps the rounds up to `slotAt` finished once no server is left due for them. */
async function finishRoundsIfDone(db: Db, slotAt: Date, now: Date): Promise<void> {
  await queryRows(
    db,
    sql`update health_rounds r set finished_at = ${ts(now)}
        where r.slot_at <= ${ts(slotAt)} and r.finished_at is null and not exists (${dueFor(sql`r.slot_at`)})`,
  );
}

/** Waits `ms`, or less when the signal stops the round. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Past a lease's end before claiming again (lease_until < now): clocks of two workers are never quite equal. */
const LEASE_MARGIN_MS = 250;
/** While waiting for others' leases, look again this often: a live worker's claims end long before their lease. */
const LEASE_POLL_MS = 2_000;

interface Claimed {
  row: ServerRow;
  specs: CheckSpec[];
  /** The round it was claimed for (a share that joins a newer round finishes what it claimed before). */
  slotAt: Date;
  /** The open windows, loaded with its batch: a window deleted or created during the round is seen. */
  windows: WindowRule[];
}

/**
 * This worker's part of the round at `slotAt`: claims batches of due servers and probes them, `concurrency` at a
 * time, until none is left (or the signal stops it). A share that finds a newer round joins it; with
 * `waitForOthers` it waits for servers other workers still hold and takes them over when their lease ends.
 * PGlite runs the same code inline.
 */
export async function runRoundShare(
  deps: { db: Db; config: Pick<Config, 'health'> },
  o: RoundOptions,
): Promise<RoundShare> {
  const { db, config } = deps;
  const started = performance.now();
  const now = o.now ?? (() => new Date());
  const leaseMs = o.leaseMs ?? ROUND_LEASE_MS;
  const sleep = o.sleep ?? abortableSleep;
  const concurrency = Math.max(1, o.concurrency ?? config.health.concurrency);
  let slotAt = await clampSlot(db, o.slotAt);
  await startRound(db, slotAt);
  const share: RoundShare = {
    slotAt,
    joinedNewer: false,
    checked: 0,
    online: 0,
    warning: 0,
    offline: 0,
    failing: 0,
    changes: [],
    stillClaimed: await countStillClaimed(db, slotAt, now(), leaseMs),
    errors: 0,
    firstError: null,
    left: 0,
    durationMs: 0,
  };
  const ctx = probeContext(config, o.timeoutMs ?? PROBE_TIMEOUT_MS);
  const queue: Claimed[] = [];
  let exhausted = false;
  let failure: unknown = null;
  let claiming: Promise<void> | null = null;

  // The claimed servers, their checks and the open windows: three queries a batch (deleted meanwhile: gone).
  const loadBatch = async (ids: string[], claimedFor: Date): Promise<Claimed[]> => {
    const rows = await db.select().from(servers).where(inArray(servers.id, ids));
    const specs = await checksOfMany(db, rows);
    const windows = await loadOpenWindows(db, now());
    return rows.map((row) => ({ row, specs: specs.get(row.id) ?? [], slotAt: claimedFor, windows }));
  };

  // A lease never outlasts leaseMs from now: twice that bounds the whole wait, whatever the other workers do.
  let waitedMs = 0;
  const claimMore = async (): Promise<Claimed[]> => {
    while (!o.signal?.aborted) {
      const claimedFor = slotAt;
      const ids = await claimDue(db, { slotAt, workerId: o.workerId, limit: concurrency, now: now(), leaseMs });
      if (ids.length) {
        const batch = await loadBatch(ids, claimedFor);
        if (batch.length) return batch;
        continue;
      }
      const newer = await newerRound(db, slotAt);
      if (newer) {
        slotAt = newer;
        share.slotAt = newer;
        share.joinedNewer = true;
        continue;
      }
      if (!o.waitForOthers) return [];
      const until = await othersLeaseEnd(db, slotAt, o.workerId, now());
      if (!until || waitedMs >= 2 * leaseMs) return [];
      const toEnd = Math.max(0, until.getTime() - now().getTime()) + LEASE_MARGIN_MS;
      const ms = Math.min(toEnd, LEASE_POLL_MS, 2 * leaseMs - waitedMs);
      waitedMs += ms;
      await sleep(ms, o.signal);
    }
    return [];
  };

  const refill = () => {
    claiming ??= claimMore()
      .then(
        (batch) => {
          if (batch.length) queue.push(...batch);
          else exhausted = true;
        },
        (err) => {
          failure ??= err;
        },
      )
      .finally(() => {
        claiming = null;
      });
    return claiming;
  };

  const probeOne = async (claimed: Claimed) => {
    const round = { slotAt: claimed.slotAt, workerId: o.workerId };
    try {
      const r = await probeServer(db, config, claimed.row.id, {
        ctx,
        windows: claimed.windows,
        now,
        preloaded: claimed,
        round,
      });
      if (r.change) share.changes.push(r.change);
      if (!r.check) return;
      share.checked++;
      if (r.check.failed && r.check.status !== 'offline') share.failing++;
      else if (r.check.status === 'online' || r.check.status === 'warning' || r.check.status === 'offline')
        share[r.check.status]++;
    } catch (err) {
      // Deleted between claim and probe: nothing to do. Another error of this server leaves it for the next
      // round and the share goes on; when even that cannot be written (the database gone), the share ends.
      if (err instanceof AppError && err.status === 404) return;
      share.errors++;
      share.firstError ??= err instanceof Error ? err.message : String(err);
      await leaveRound(db, claimed.row.id, round).catch((e) => {
        failure ??= e;
      });
    }
  };

  const lane = async () => {
    while (!failure && !o.signal?.aborted) {
      const next = queue.shift();
      if (next) await probeOne(next);
      else if (exhausted) return;
      else await refill();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  share.left = queue.length;
  const unprobed = queue.splice(0).map((q) => q.row.id);
  await releaseClaims(db, unprobed, o.workerId).catch(() => {});
  if (failure) throw failure;
  if (exhausted) await finishRoundsIfDone(db, slotAt, now());
  share.durationMs = Math.round(performance.now() - started);
  return share;
}
