import { eq, ne } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { healthChecks, servers } from '../db/schema';
import { probeTcp } from './probe';
import type { Server, ServerStatus } from './schemas';
import { requireServer, toServer } from './service';

const BUSY = 90;

/** Reachable → online, or warning when the last cpu, memory or disk usage is ≥ 90%; else offline. */
export function statusAfterProbe(server: Pick<Server, 'cpuUsage' | 'memoryUsage' | 'diskUsage'>, reachable: boolean): ServerStatus {
  if (!reachable) return 'offline';
  return Math.max(server.cpuUsage, server.memoryUsage, server.diskUsage) >= BUSY ? 'warning' : 'online';
}

/** A change ops must hear about: a server went offline, or came back from offline (to online or warning). */
export interface StatusChange {
  /** The health check that saw it (a round's changes are named by their checks, so a retry finds the same ones). */
  checkId: string;
  serverId: string;
  name: string;
  address: string | null;
  environment: string;
  from: ServerStatus;
  to: ServerStatus;
  at: Date;
}

/** Offline after not being offline, or reachable again after being offline. */
export const isNotableChange = (from: ServerStatus, to: ServerStatus) =>
  from !== to && (to === 'offline' || (from === 'offline' && (to === 'online' || to === 'warning')));

/**
 * Probes one server (TCP to ipAddress, else hostname, on monitorPort), stores the check and the new status;
 * returns it with the change when it is one to notify about. Servers in maintenance are not probed.
 */
export async function probeServer(db: Db, serverId: string, opts: { actorId?: string | null; timeoutMs?: number } = {}): Promise<{ server: Server; change: StatusChange | null }> {
  const server = await requireServer(db, serverId);
  if (server.status === 'maintenance') return { server, change: null };
  const host = server.ipAddress ?? server.hostname;
  const probe = host
    ? await probeTcp(host, server.monitorPort, opts.timeoutMs ?? 3000)
    : { reachable: false, latencyMs: 0, error: 'No IP address or hostname to probe.' };
  const status = statusAfterProbe(server, probe.reachable);
  const now = new Date();
  const changed = status !== server.status;
  const [check] = await db
    .insert(healthChecks)
    .values({
      serverId,
      checkedAt: now,
      status,
      previousStatus: server.status,
      latencyMs: probe.reachable ? probe.latencyMs : null,
      error: probe.error,
    })
    .returning({ id: healthChecks.id });
  const [row] = await db
    .update(servers)
    // The status is written only when it changed: a check that finds the server as it was moves no counter.
    .set({ lastHealthCheck: now, ...(changed ? { status, statusChangedAt: now } : {}) })
    .where(eq(servers.id, serverId))
    .returning();
  if (!row) return { server: await requireServer(db, serverId), change: null }; // deleted meanwhile: answers 404
  if (changed) {
    await recordAudit(db, {
      actorId: opts.actorId ?? null,
      action: 'server.status',
      entityType: 'server',
      entityId: serverId,
      details: { from: server.status, to: status, via: 'health-check', error: probe.error },
    });
  }
  const change = isNotableChange(server.status, status)
    ? { checkId: check.id, serverId, name: row.name, address: host ?? null, environment: row.environment, from: server.status, to: status, at: now }
    : null;
  return { server: toServer(row), change };
}


export interface CheckAllSummary {
  checked: number;
  online: number;
  warning: number;
  offline: number;
  durationMs: number;
  /** Servers that went offline or came back in this round (for notifications). */
  changes: StatusChange[];
}

/** Checks every server not in maintenance, at most `concurrency` (default 20) probes at a time; lists the notable changes. */
export async function checkAllServers(db: Db, opts: { concurrency?: number; timeoutMs?: number } = {}): Promise<CheckAllSummary> {
  const started = performance.now();
  const ids = (await db.select({ id: servers.id }).from(servers).where(ne(servers.status, 'maintenance'))).map((r) => r.id);
  const summary: CheckAllSummary = { checked: 0, online: 0, warning: 0, offline: 0, durationMs: 0, changes: [] };
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      try {
        const { server: s, change } = await probeServer(db, id, { timeoutMs: opts.timeoutMs });
        if (change) summary.changes.push(change);
        if (s.status === 'maintenance') continue;
        summary.checked++;
        if (s.status === 'online' || s.status === 'warning' || s.status === 'offline') summary[s.status]++;
      } catch {
        // Deleted between listing and probing: skip it.
      }
    }
  };
  const width = Math.max(1, Math.min(opts.concurrency ?? 20, ids.length));
  await Promise.all(Array.from({ length: width }, worker));
  summary.durationMs = Math.round(performance.now() - started);
  return summary;
}
