import { pushServerStatus, queueServerStatusMails, type NotifyDeps } from '../notifications/service';
import { AppError } from '../http/errors';
import { recordAlertChanges } from '../alerts/service';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { changedBy, flagServerChange, flagServerDeletion } from '../runbooks/service';
import { claimUnannouncedChanges, probeServer } from './health';
import { newWorkerId, type RoundFigures, type RoundShare, roundFigures, roundForHand, runRoundShare } from './round';
import { type CheckedServer, firstCheckPending, type Server, type ServerInput } from './schemas';
import { deleteServerInTx, lockServer, updateServerInTx } from './service';
import { queueAnnouncedChanges } from './webhook-events';

/*
 * Health checks as one command each: probe, store (one transaction per server, with the change marked
 * unannounced), announce. The scheduled round, Run Health Check and a server's Check now all come here.
 */

export type CheckDeps = NotifyDeps & { config: NotifyDeps['config'] & Pick<Config, 'health'> };

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
    await recordAlertChanges(tx, changes);
    await queueAnnouncedChanges(tx, changes);
    return { changes, emails: await queueServerStatusMails(tx, deps.config.appUrl, changes) };
  });
  const pushes = await pushServerStatus(deps, changes);
  return { changes: changes.length, emails, pushes };
}

/**
 * A server's Check now: probe and store it, announce (the e-mails go out when their transaction commits).
 * Answers the server as stored and what the probe found (check null: in maintenance, not probed).
 */
export async function checkServer(deps: CheckDeps, serverId: string, actorId: string | null): Promise<CheckedServer> {
  const { server, check } = await probeServer(deps.db, deps.config, serverId, { actorId });
  await announceStatusChanges(deps);
  return { ...server, check };
}

/** How long the answer to Add Server waits for the first check (a probe may take PROBE_TIMEOUT_MS, 3 s). */
export const CREATE_CHECK_WAIT_MS = 1000;

/**
 * The first check of a server just added (its row committed), so it does not wait for the next round (up to 5
 * minutes). The check starts at once; the caller gets the checked server when the probe is done within `waitMs`
 * (a host that connects or refuses answers in milliseconds), else the server as added, while the check goes on
 * and is stored when the probe ends. Servers in maintenance, or without an address, are not probed.
 */
export async function checkNewServer(
  deps: CheckDeps,
  server: Server,
  actorId: string | null,
  waitMs = CREATE_CHECK_WAIT_MS,
): Promise<Server> {
  if (!firstCheckPending(server)) return server;
  const checked = checkServer(deps, server.id, actorId).then(
    ({ check: _check, ...stored }) => stored,
    (err) => {
      // Deleted before its check ended: nothing to store. Anything else is left to the next round.
      if (!(err instanceof AppError && err.status === 404))
        deps.logger.warn({ err, serverId: server.id }, 'first health check of a new server failed');
      return server;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<Server>((resolve) => {
    timer = setTimeout(() => resolve(server), waitMs);
  });
  try {
    return await Promise.race([checked, waited]);
  } finally {
    clearTimeout(timer);
  }
}

/** This process's worker id when a round is started by hand (Run Health Check). */
let handWorkerId: string | undefined;

/**
 * This worker's share of a round (every server not in maintenance when it is the only worker), then the
 * announcement. A scheduled share (`slotAt`) waits for the servers other workers still hold. Without a slot (Run
 * Health Check, "Run now") the share joins the latest round while it has servers due or claimed (`joined`), else
 * starts a new round now. An aborted `signal` (shutdown) ends the share early; what it found is announced all the same.
 */
export async function checkAll(
  deps: CheckDeps,
  opts: { signal?: AbortSignal; slotAt?: Date; workerId?: string } = {},
): Promise<RoundShare & { announced: Announced; joined: boolean; found: RoundFigures }> {
  handWorkerId ??= newWorkerId();
  const scheduled = opts.slotAt !== undefined;
  const { slotAt, joined } = scheduled ? { slotAt: opts.slotAt!, joined: false } : await roundForHand(deps.db);
  const round = await runRoundShare(deps, {
    slotAt,
    workerId: opts.workerId ?? handWorkerId,
    signal: opts.signal,
    waitForOthers: scheduled,
  });
  const announced = await announceStatusChanges(deps);
  // Joined a round others work on: what the whole round found so far, not only this share's part.
  const found =
    joined || round.joinedNewer
      ? await roundFigures(deps.db, round.slotAt)
      : { checked: round.checked, online: round.online, warning: round.warning, offline: round.offline };
  return { ...round, announced, joined, found };
}

/** Who changes a server: the signed-in user, and whether they came with an API token (then flags say "an agent"). */
export interface ServerActor {
  id: string | null;
  viaToken: boolean;
}

/**
 * Saves a server's form (PUT /api/servers/{id}): the row, its audit event, and a review flag on every document
 * linked to it for each identity field that changed (with its owner and watchers told), in one transaction.
 */
export async function updateServer(db: Db, id: string, input: ServerInput, actor: ServerActor): Promise<Server> {
  return db.transaction(async (tx) => {
    const { before, server } = await updateServerInTx(tx, id, input, actor.id);
    await flagServerChange(tx, before, server, await changedBy(tx, actor.id, actor.viaToken));
    return server;
  });
}

/**
 * Deletes a server: its linked documents are flagged first (the delete takes the links with it), then the row and
 * its audit event go, in one transaction.
 */
export async function deleteServer(db: Db, id: string, actor: ServerActor): Promise<void> {
  await db.transaction(async (tx) => {
    const server = await lockServer(tx, id);
    await flagServerDeletion(tx, server, await changedBy(tx, actor.id, actor.viaToken));
    await deleteServerInTx(tx, id, actor.id);
  });
}
