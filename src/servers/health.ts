import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { healthChecks, servers } from '../db/schema';
import { AppError, notFound } from '../http/errors';
import { probeTcp } from './probe';
import { type HealthCheckResult, PROBE_TIMEOUT_MS, type Server, type ServerStatus, type StatusChange } from './schemas';
import { requireServer, toServer } from './service';

const BUSY = 90;

/** Reachable → online, or warning when the last cpu, memory or disk usage is ≥ 90%; else offline. */
export function statusAfterProbe(
  server: Pick<Server, 'cpuUsage' | 'memoryUsage' | 'diskUsage'>,
  reachable: boolean,
): ServerStatus {
  if (!reachable) return 'offline';
  return Math.max(server.cpuUsage, server.memoryUsage, server.diskUsage) >= BUSY ? 'warning' : 'online';
}

/** Offline after not being offline, or reachable again after being offline. */
export const isNotableChange = (from: ServerStatus, to: ServerStatus) =>
  from !== to && (to === 'offline' || (from === 'offline' && (to === 'online' || to === 'warning')));

/**
 * Probes one server (TCP to ipAddress, else hostname, on monitorPort), then stores the check, the new status
 * and its audit entry in one transaction; a notable change is stored as unannounced, so it is announced
 * (announceStatusChanges in commands.ts) even when the process dies right after. Servers in maintenance are not probed.
 */
export async function probeServer(
  db: Db,
  serverId: string,
  opts: { actorId?: string | null; timeoutMs?: number } = {},
): Promise<{ server: Server; change: StatusChange | null; check: HealthCheckResult }> {
  const before = await requireServer(db, serverId);
  if (before.status === 'maintenance') return { server: before, change: null, check: null };
  const host = before.ipAddress ?? before.hostname;
  const probe = host
    ? await probeTcp(host, before.monitorPort, opts.timeoutMs ?? PROBE_TIMEOUT_MS)
    : { reachable: false, latencyMs: 0, error: 'No IP address or hostname to probe.' };
  return db.transaction(async (tx) => {
    // The status as it is now (locked), not as before the probe: two checks at once store one change, not two.
    const [server] = await tx.select().from(servers).where(eq(servers.id, serverId)).for('update');
    if (!server) throw notFound('Server not found.'); // deleted meanwhile
    if (server.status === 'maintenance') return { server: toServer(server), change: null, check: null };
    const status = statusAfterProbe(server, probe.reachable);
    const now = new Date();
    const changed = status !== server.status;
    const notable = isNotableChange(server.status, status);
    const [check] = await tx
      .insert(healthChecks)
      .values({
        serverId,
        checkedAt: now,
        status,
        previousStatus: server.status,
        latencyMs: probe.reachable ? probe.latencyMs : null,
        error: probe.error,
        unannounced: notable,
      })
      .returning({ id: healthChecks.id });
    if (opts.actorId) {
      const details = { status, from: server.status, error: probe.error };
      await recordAudit(tx, {
        actorId: opts.actorId,
        action: 'server.check',
        entityType: 'server',
        entityId: serverId,
        details,
      });
    }
    if (changed) {
      await recordAudit(tx, {
        actorId: opts.actorId ?? null,
        action: 'server.status',
        entityType: 'server',
        entityId: serverId,
        details: { from: server.status, to: status, via: 'health-check', error: probe.error },
      });
    }
    const [row] = await tx
      .update(servers)
      // The status is written only when it changed: a check that finds the server as it was moves no counter.
      .set({ lastHealthCheck: now, ...(changed ? { status, statusChangedAt: now } : {}) })
      .where(eq(servers.id, serverId))
      .returning();
    const change = notable
      ? {
          checkId: check.id,
          serverId,
          name: row.name,
          address: host ?? null,
          environment: row.environment,
          from: server.status,
          to: status,
          at: now,
        }
      : null;
    const latencyMs = probe.reachable ? probe.latencyMs : null;
    return { server: toServer(row), change, check: { status, latencyMs, error: probe.error } };
  });
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
  return rows.map(({ ipAddress, hostname, from, ...r }) => ({
    ...r,
    address: ipAddress ?? hostname,
    from: from ?? 'unknown',
  }));
}

export interface CheckAllSummary {
  checked: number;
  online: number;
  warning: number;
  offline: number;
  durationMs: number;
  /** Servers that went offline or came back in this round. */
  changes: StatusChange[];
  /** Servers left unchecked because the signal stopped the round (0 for a whole round). */
  skipped: number;
}

/**
 * Checks every server not in maintenance, at most `concurrency` (default 20) probes at a time, those checked
 * longest ago first (so servers a round cut short did not reach go first next time). Once `signal` is
 * aborted no new probe starts; probes under way finish and are stored.
 */
export async function checkAllServers(
  db: Db,
  opts: { concurrency?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<CheckAllSummary> {
  const started = performance.now();
  const ids = (
    await db
      .select({ id: servers.id })
      .from(servers)
      .where(ne(servers.status, 'maintenance'))
      .orderBy(sql`${servers.lastHealthCheck} asc nulls first`, asc(servers.name))
  ).map((r) => r.id);
  const summary: CheckAllSummary = {
    checked: 0,
    online: 0,
    warning: 0,
    offline: 0,
    durationMs: 0,
    changes: [],
    skipped: 0,
  };
  let next = 0;
  const worker = async () => {
    while (next < ids.length && !opts.signal?.aborted) {
      const id = ids[next++];
      try {
        const { server: s, change } = await probeServer(db, id, { timeoutMs: opts.timeoutMs });
        if (change) summary.changes.push(change);
        if (s.status === 'maintenance') continue;
        summary.checked++;
        if (s.status === 'online' || s.status === 'warning' || s.status === 'offline') summary[s.status]++;
      } catch (err) {
        // Deleted between listing and probing: skip it. Anything else (the database gone) ends the round.
        if (err instanceof AppError && err.status === 404) continue;
        next = ids.length;
        throw err;
      }
    }
  };
  const width = Math.max(1, Math.min(opts.concurrency ?? 20, ids.length));
  await Promise.all(Array.from({ length: width }, worker));
  summary.skipped = ids.length - next;
  summary.durationMs = Math.round(performance.now() - started);
  return summary;
}
