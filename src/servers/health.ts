import { and, asc, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Config } from '../config';
import { type Db, queryRows } from '../db/client';
import { healthChecks, maintenanceWindows, serverChecks, servers } from '../db/schema';
import { notFound } from '../http/errors';
import { windowCovering, type WindowRule } from './maintenance-window';
import {
  type CheckResultEntry,
  type CheckSpec,
  implicitCheck,
  type ProbeContext,
  probeContext,
  runCheck,
} from './probes';
import { type HealthCheckResult, PROBE_TIMEOUT_MS, type Server, type ServerStatus, type StatusChange } from './schemas';
import { isUuid, toServer } from './service';

/** A servers row as stored. */
export type ServerRow = typeof servers.$inferSelect;

const BUSY = 90;
const HOUR_MS = 60 * 60 * 1000;

/** What the checks of one round found, before the failure count decides the status. */
export type Observed = 'ok' | 'warning' | 'failing';

/** The worst of the checks: any failing → failing; any warning, or cpu/memory/disk ≥ 90% → warning; else ok. */
export function observedStatus(
  server: Pick<Server, 'cpuUsage' | 'memoryUsage' | 'diskUsage'>,
  results: Pick<CheckResultEntry, 'status'>[],
): Observed {
  if (results.some((r) => r.status === 'failing')) return 'failing';
  if (results.some((r) => r.status === 'warning')) return 'warning';
  return Math.max(server.cpuUsage, server.memoryUsage, server.diskUsage) >= BUSY ? 'warning' : 'ok';
}

/**
 * The status after a round: offline once `failures` rounds in a row failed; before that the status stays as it
 * was (an 'unknown' new server stays 'unknown' until it reaches N or passes a check); one success brings it back.
 */
export function statusAfterRound(previous: ServerStatus, observed: Observed, consecutive: number, failures: number) {
  if (observed === 'failing') return consecutive >= failures ? 'offline' : previous;
  return observed === 'warning' ? 'warning' : 'online';
}

/** Offline after not being offline, or reachable again after being offline. */
export const isNotableChange = (from: ServerStatus, to: ServerStatus) =>
  from !== to && (to === 'offline' || (from === 'offline' && (to === 'online' || to === 'warning')));

/** The checks of these servers in position order, else each one's implicit tcp check (none: no address). */
export async function checksOfMany(db: Db, rows: ServerRow[]): Promise<Map<string, CheckSpec[]>> {
  const explicit = rows.length
    ? await db
        .select()
        .from(serverChecks)
        .where(
          inArray(
            serverChecks.serverId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(serverChecks.position), asc(serverChecks.createdAt))
    : [];
  const specs = new Map<string, CheckSpec[]>();
  for (const { serverId, position: _p, createdAt: _c, ...spec } of explicit) {
    specs.set(serverId, [...(specs.get(serverId) ?? []), spec]);
  }
  for (const row of rows) {
    if (specs.has(row.id)) continue;
    const implicit = implicitCheck(row);
    specs.set(row.id, implicit ? [implicit] : []);
  }
  return specs;
}

const NO_ADDRESS: CheckResultEntry = {
  checkId: null,
  kind: 'tcp',
  status: 'failing',
  latencyMs: null,
  error: 'No IP address or hostname to probe.',
};

/** Runs every check of a server at once; never throws. */
async function runChecks(specs: CheckSpec[], ctx: ProbeContext): Promise<CheckResultEntry[]> {
  if (!specs.length) return [NO_ADDRESS];
  return Promise.all(specs.map((spec) => runCheck(spec, ctx)));
}

/** Maintenance windows that may be open at `now` (weekly ones always, one-off ones not yet ended). */
export async function loadOpenWindows(db: Db, now: Date): Promise<WindowRule[]> {
  const rows = await db
    .select()
    .from(maintenanceWindows)
    .where(or(eq(maintenanceWindows.weekly, true), gt(maintenanceWindows.endsAt, now)));
  return rows.map((w) => ({ ...w, serverIds: w.serverIds ?? null, environment: w.environment ?? null }));
}

/** Status changes of a server stored since `since` (the hour the flapping rule looks at). */
async function changesSince(db: Db, serverId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(healthChecks)
    .where(
      and(
        eq(healthChecks.serverId, serverId),
        gt(healthChecks.checkedAt, since),
        isNotNull(healthChecks.previousStatus),
        sql`${healthChecks.status} <> ${healthChecks.previousStatus}`,
      ),
    );
  return row?.n ?? 0;
}

export interface ProbeOptions {
  actorId?: string | null;
  timeoutMs?: number;
  /** The clock (tests pass a fixed one). */
  now?: () => Date;
  /** The probe context of the round (built once per round); else built from config. */
  ctx?: ProbeContext;
  /** The open maintenance windows of the round; else loaded. */
  windows?: WindowRule[];
  /** The server row and its checks, loaded with the round's batch; else loaded here. */
  preloaded?: { row: ServerRow; specs: CheckSpec[] };
  /** The round this probe belongs to: its health_schedule row is marked done with the probe, in one commit. */
  round?: RoundClaim;
}

/** A server claimed for a round by a worker. */
export interface RoundClaim {
  slotAt: Date;
  workerId: string;
}

export interface ProbeOutcome {
  server: Server;
  change: StatusChange | null;
  check: HealthCheckResult;
  results: CheckResultEntry[];
}

async function loadRow(db: Db, serverId: string): Promise<ServerRow> {
  const [row] = isUuid(serverId) ? await db.select().from(servers).where(eq(servers.id, serverId)) : [];
  if (!row) throw notFound('Server not found.');
  return row;
}

/**
 * Probes one server (all its checks at once), then stores ONE health_checks row with each check's result, the
 * new status, failure count, flapping and maintenance window, and the audit entries, in one transaction. A
 * change to announce is stored as unannounced, so it is announced (announceStatusChanges in commands.ts) even
 * when the process dies right after. Servers in the manual maintenance status are not probed.
 */
export async function probeServer(
  db: Db,
  config: Pick<Config, 'health'>,
  serverId: string,
  opts: ProbeOptions = {},
): Promise<ProbeOutcome> {
  const before = opts.preloaded?.row ?? (await loadRow(db, serverId));
  if (before.status === 'maintenance') {
    // Set to maintenance after the claim: not probed, and its lease goes now (not when it ends).
    if (opts.round) await leaveRound(db, serverId, opts.round);
    return { server: toServer(before), change: null, check: null, results: [] };
  }
  const specs = opts.preloaded?.specs ?? (await checksOfMany(db, [before])).get(before.id) ?? [];
  const ctx = opts.ctx ?? probeContext(config, opts.timeoutMs ?? PROBE_TIMEOUT_MS);
  const results = await runChecks(specs, ctx);
  const now = opts.now?.() ?? new Date();
  const windows = opts.windows ?? (await loadOpenWindows(db, now));
  if (!opts.actorId) {
    const steady = await storeSteady(db, config, before, results, windows, now, opts.round);
    if (steady) return steady;
  }
  return db.transaction((tx) => storeProbe(tx, config, serverId, results, windows, now, opts));
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The plain error of the first failing check, else of the first warning; the first check's latency. */
function summarise(results: CheckResultEntry[]) {
  const firstFailing = results.find((r) => r.status === 'failing');
  const firstWarning = results.find((r) => r.status === 'warning');
  const error = (firstFailing ?? firstWarning)?.error ?? null;
  const latencyMs = results[0]?.status === 'failing' ? null : (results[0]?.latencyMs ?? null);
  return { error, latencyMs };
}

/**
 * The common case of a round, in one statement: the status stays, nothing to announce, not flapping. Written
 * only if the row is still as it was loaded (else null: the locked path decides). Asynchronous commit: a crash
 * may lose the last fraction of a second of these unchanged results (the next round writes them again), never
 * a status change, which takes the locked, synchronously committed path.
 */
async function storeSteady(
  db: Db,
  config: Pick<Config, 'health'>,
  row: ServerRow,
  results: CheckResultEntry[],
  windows: WindowRule[],
  now: Date,
  round: RoundClaim | undefined,
): Promise<ProbeOutcome | null> {
  const observed = observedStatus(row, results);
  const failed = observed === 'failing';
  const consecutive = failed ? row.consecutiveFailures + 1 : 0;
  const status = statusAfterRound(row.status, observed, consecutive, config.health.failures);
  if (status !== row.status || row.flappingSince) return null;
  const windowId = windowCovering(windows, row, now)?.id ?? null;
  // Leaving a window (or one the list does not know yet): the locked path decides what to announce.
  if (row.maintenanceWindowId && windowId !== row.maintenanceWindowId) return null;
  const { error, latencyMs } = summarise(results);
  const schedule = round
    ? sql`, r as (update health_schedule set round_at = greatest(round_at, ${ts(round.slotAt)}), lease_until = null,
            claimed_by = null
          where server_id in (select id from s) and claimed_by = ${round.workerId})`
    : sql``;
  // The window only if it still exists (deleted during the round: none), and only if the row is as loaded.
  const [stored] = await queryRows<{ id: string | null; window: string | null; commit: string }>(
    db,
    sql`with cfg as (select set_config('synchronous_commit', 'off', true) as v),
      s as (update servers set last_health_check = ${ts(now)}, consecutive_failures = ${consecutive},
              maintenance_window_id = (select id from maintenance_windows where id = ${windowId}::uuid)
            where id = ${row.id}::uuid and status = ${row.status} and consecutive_failures = ${row.consecutiveFailures}
              and flapping_since is null and maintenance_window_id is not distinct from ${row.maintenanceWindowId}::uuid
            returning id, status, maintenance_window_id),
      h as (insert into health_checks (server_id, checked_at, status, previous_status, latency_ms, error, results)
            select id, ${ts(now)}, status, status, ${latencyMs}::int, ${error}::text, ${JSON.stringify(results)}::jsonb from s
            returning id)
      ${schedule}
      select (select id from h) as id, (select maintenance_window_id from s) as window, (select v from cfg) as commit`,
  );
  if (!stored?.id) return null;
  const server = toServer({
    ...row,
    lastHealthCheck: now,
    consecutiveFailures: consecutive,
    maintenanceWindowId: stored.window,
  });
  const check = { status, latencyMs, error, failed, consecutiveFailures: consecutive };
  return { server, change: null, check: { ...check, failuresToOffline: config.health.failures }, results };
}

async function storeProbe(
  tx: Db,
  config: Pick<Config, 'health'>,
  serverId: string,
  results: CheckResultEntry[],
  windows: WindowRule[],
  now: Date,
  opts: ProbeOptions,
): Promise<ProbeOutcome> {
  // The server as it is now (locked), not as before the probe: two checks at once store one change, not two.
  const [server] = await tx.select().from(servers).where(eq(servers.id, serverId)).for('update');
  if (!server) throw notFound('Server not found.'); // deleted meanwhile
  if (server.status === 'maintenance') {
    if (opts.round) await leaveRound(tx, serverId, opts.round);
    return { server: toServer(server), change: null, check: null, results: [] };
  }
  const observed = observedStatus(server, results);
  const failed = observed === 'failing';
  const consecutive = failed ? server.consecutiveFailures + 1 : 0;
  const status = statusAfterRound(server.status, observed, consecutive, config.health.failures);
  const changed = status !== server.status;
  const windowId = await windowNow(tx, windows, server, now);
  const flap = await flapping(tx, config, server, changed, now);
  const notable = flap.started || flap.settled || (!flap.on && isNotableChange(server.status, status));
  // Offline when its window ended, having gone offline inside it: announced now, once (nobody was told then).
  const outAfterWindow =
    !windowId && !notable && !flap.on && status === 'offline' && (await wentOfflineInWindow(tx, server));
  const announce = !windowId && (notable || outAfterWindow);
  const { error, latencyMs } = summarise(results);
  const [check] = await tx
    .insert(healthChecks)
    .values({
      serverId,
      checkedAt: now,
      status,
      // No previous status for that announcement: it is no change of status (and not a flapping one that settled).
      previousStatus: outAfterWindow ? null : server.status,
      latencyMs,
      error,
      unannounced: announce,
      results,
    })
    .returning({ id: healthChecks.id });
  await auditProbe(tx, serverId, opts.actorId ?? null, { from: server.status, to: status, error, changed, flap });
  const [row] = await tx
    .update(servers)
    // The status is written only when it changed: a check that finds the server as it was moves no counter.
    .set({
      lastHealthCheck: now,
      consecutiveFailures: consecutive,
      flappingSince: flap.on ? (server.flappingSince ?? now) : null,
      maintenanceWindowId: windowId,
      ...(changed ? { status, statusChangedAt: now } : {}),
    })
    .where(eq(servers.id, serverId))
    .returning();
  if (opts.round) await leaveRound(tx, serverId, opts.round);
  const change: StatusChange | null = announce
    ? {
        checkId: check.id,
        serverId,
        name: row.name,
        address: row.ipAddress ?? row.hostname ?? null,
        environment: row.environment,
        from: outAfterWindow ? 'unknown' : server.status,
        to: status,
        at: now,
        ...(flap.started ? { flapping: 'started' as const } : flap.settled ? { flapping: 'settled' as const } : {}),
      }
    : null;
  const result = { status, latencyMs, error, failed, consecutiveFailures: consecutive };
  return {
    server: toServer(row),
    change,
    check: { ...result, failuresToOffline: config.health.failures },
    results,
  };
}

/**
 * The server is done for the round: its claim ends. Only this worker's claim (a lease that ran out and was taken
 * over is the new holder's to finish), and round_at never goes back (a newer round probed it already).
 */
export async function leaveRound(db: Db, serverId: string, round: RoundClaim): Promise<void> {
  await queryRows(
    db,
    sql`update health_schedule set round_at = greatest(round_at, ${ts(round.slotAt)}), lease_until = null,
          claimed_by = null
        where server_id = ${serverId}::uuid and claimed_by = ${round.workerId}`,
  );
}

/** A window row that exists, locked against deletion until this transaction ends (null: deleted). */
async function lockedWindow(tx: Db, id: string): Promise<WindowRule | null> {
  const [w] = await tx.select().from(maintenanceWindows).where(eq(maintenanceWindows.id, id)).for('key share');
  return w ? { ...w, serverIds: w.serverIds ?? null, environment: w.environment ?? null } : null;
}

/**
 * The window the server is in now, as the database has it: one of the round's windows that still exists, else
 * the one the server was put in meanwhile (a window created during the round) if it is open; else none.
 */
async function windowNow(tx: Db, windows: WindowRule[], server: ServerRow, now: Date): Promise<string | null> {
  const listed = windowCovering(windows, server, now);
  if (listed && (await lockedWindow(tx, listed.id))) return listed.id;
  if (!server.maintenanceWindowId || server.maintenanceWindowId === listed?.id) return null;
  const current = await lockedWindow(tx, server.maintenanceWindowId);
  return current && windowCovering([current], server, now) ? current.id : null;
}

/**
 * Before a window is deleted: the servers it holds that went offline inside it and are still offline get their
 * announcement stored now (the next announcement sends it), as a probe would when the window ends — the delete
 * clears their window, so no later probe could tell. Called in the deleting transaction.
 */
export async function announceOfflineLeavingWindow(tx: Db, windowId: string, now = new Date()): Promise<number> {
  const held = await tx
    .select()
    .from(servers)
    .where(and(eq(servers.maintenanceWindowId, windowId), eq(servers.status, 'offline')))
    .for('update');
  let stored = 0;
  for (const server of held) {
    if (!(await wentOfflineInWindow(tx, server))) continue;
    const [last] = await tx
      .select({ results: healthChecks.results, error: healthChecks.error })
      .from(healthChecks)
      .where(eq(healthChecks.serverId, server.id))
      .orderBy(sql`${healthChecks.checkedAt} desc`)
      .limit(1);
    // Like the end-of-window announcement of a probe: no previous status, it is no change of status.
    await tx.insert(healthChecks).values({
      serverId: server.id,
      checkedAt: now,
      status: 'offline',
      previousStatus: null,
      error: last?.error ?? null,
      results: last?.results ?? null,
      unannounced: true,
    });
    stored++;
  }
  return stored;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The server (offline, just out of its window) went offline while the window held it: after the start of the
 * window's stretch it was last seen in. Offline before the window, it was announced then.
 */
async function wentOfflineInWindow(tx: Db, server: ServerRow): Promise<boolean> {
  if (!server.maintenanceWindowId) return false;
  const w = await lockedWindow(tx, server.maintenanceWindowId);
  const seen = server.lastHealthCheck?.getTime();
  if (!w || seen === undefined) return true;
  const start = w.startsAt.getTime();
  const stretch = w.weekly && seen > start ? start + Math.floor((seen - start) / WEEK_MS) * WEEK_MS : start;
  return (server.statusChangedAt?.getTime() ?? 0) >= stretch;
}

interface Flap {
  /** Flapping after this probe. */
  on: boolean;
  started: boolean;
  settled: boolean;
}

/**
 * More than flapLimit status changes in the last hour (this one included) → flapping; it ends when the hour's
 * changes fall to the limit or below. Counted only when it can move: on a change, or while flapping.
 */
async function flapping(
  tx: Db,
  config: Pick<Config, 'health'>,
  server: { id: string; flappingSince: Date | null },
  changed: boolean,
  now: Date,
): Promise<Flap> {
  const was = server.flappingSince !== null;
  if (!changed && !was) return { on: false, started: false, settled: false };
  const changes = (await changesSince(tx, server.id, new Date(now.getTime() - HOUR_MS))) + (changed ? 1 : 0);
  const on = changes > config.health.flapLimit;
  return { on, started: on && !was, settled: was && !on };
}

async function auditProbe(
  tx: Db,
  serverId: string,
  actorId: string | null,
  p: { from: ServerStatus; to: ServerStatus; error: string | null; changed: boolean; flap: Flap },
): Promise<void> {
  const entity = { entityType: 'server', entityId: serverId } as const;
  if (actorId) {
    const details = { status: p.to, from: p.from, error: p.error };
    await recordAudit(tx, { actorId, action: 'server.check', ...entity, details });
  }
  if (p.changed) {
    const details = { from: p.from, to: p.to, via: 'health-check', error: p.error };
    await recordAudit(tx, { actorId, action: 'server.status', ...entity, details });
  }
  if (p.flap.started || p.flap.settled) {
    const details = { flapping: p.flap.started, status: p.to };
    await recordAudit(tx, { actorId, action: 'server.flapping', ...entity, details });
  }
}

/**
 * Takes the changes not announced yet (oldest first) and marks them announced; pass the transaction that
 * queues their notifications, so they are announced exactly once. Rows another transaction holds are skipped.
 */
export async function claimUnannouncedChanges(tx: Db): Promise<StatusChange[]> {
  const rows = await tx
    .select({
      checkId: healthChecks.id,
      serverId: healthChecks.serverId,
      name: servers.name,
      ipAddress: servers.ipAddress,
      hostname: servers.hostname,
      environment: servers.environment,
      from: healthChecks.previousStatus,
      to: healthChecks.status,
      at: healthChecks.checkedAt,
      flappingSince: servers.flappingSince,
    })
    .from(healthChecks)
    .innerJoin(servers, eq(servers.id, healthChecks.serverId))
    .where(eq(healthChecks.unannounced, true))
    .orderBy(asc(healthChecks.checkedAt))
    .for('update', { of: healthChecks, skipLocked: true });
  if (!rows.length) return [];
  await tx
    .update(healthChecks)
    .set({ unannounced: false })
    .where(
      and(
        eq(healthChecks.unannounced, true),
        inArray(
          healthChecks.id,
          rows.map((r) => r.checkId),
        ),
      ),
    );
  return rows.map(({ ipAddress, hostname, from, flappingSince, ...r }) => {
    const change: StatusChange = { ...r, address: ipAddress ?? hostname, from: from ?? 'unknown' };
    // The row that started flapping is the one stamped with flapping_since; an unchanged row is only ever
    // stored to announce: the status a flapping server settled on.
    if (flappingSince && flappingSince.getTime() === r.at.getTime()) change.flapping = 'started';
    else if (change.from === change.to) change.flapping = 'settled';
    return change;
  });
}
