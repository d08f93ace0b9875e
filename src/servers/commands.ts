import { pushServerStatus, queueServerStatusMails, type NotifyDeps } from '../notifications/service';
import { checkAllServers, claimUnannouncedChanges, probeServer, type CheckAllSummary } from './health';
import type { Server } from './schemas';

/*
 * Health checks as one command each: probe, store (one transaction per server, with the change marked
 * unannounced), announce. The scheduled round, Run Health Check and a server's Check now all come here.
 */

export type CheckDeps = NotifyDeps;

export interface Announced {
  /** Changes announced (went offline or came back). */
  changes: number;
  /** Users e-mailed. */
  emails: number;
  /** Browsers pushed to. */
  pushes: number;
}

/**
 * Announces every stored change not announced yet: this check's, and any left by a round cut short or a crash.
 * The e-mails are queued in the transaction that marks the changes announced (exactly once, even with two
 * workers); pushes go after it commits.
 */
export async function announceStatusChanges(deps: NotifyDeps): Promise<Announced> {
  const { changes, emails } = await deps.db.transaction(async (tx) => {
    const changes = await claimUnannouncedChanges(tx);
    return { changes, emails: await queueServerStatusMails(tx, deps.config.appUrl, changes) };
  });
  const pushes = await pushServerStatus(deps, changes);
  return { changes: changes.length, emails, pushes };
}

/** A server's Check now: probe and store it, announce (the e-mails go out when their transaction commits). */
export async function checkServer(deps: CheckDeps, serverId: string, actorId: string | null): Promise<Server> {
  const { server } = await probeServer(deps.db, serverId, { actorId });
  await announceStatusChanges(deps);
  return server;
}

/**
 * A round over every server not in maintenance (20 probes at a time), then the announcement. An aborted
 * `signal` (shutdown) ends the round early; what it found is announced all the same.
 */
export async function checkAll(
  deps: CheckDeps,
  opts: { signal?: AbortSignal } = {},
): Promise<CheckAllSummary & { announced: Announced }> {
  const round = await checkAllServers(deps.db, { concurrency: 20, signal: opts.signal });
  const announced = await announceStatusChanges(deps);
  return { ...round, announced };
}
