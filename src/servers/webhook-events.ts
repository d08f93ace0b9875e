import type { Db } from '../db/client';
import { type QueuedEvent, queueWebhookEvent, queueWebhookEvents } from '../webhooks/service';
import type { Server, StatusChange } from './schemas';

/* Server events for outgoing webhooks, queued in the transaction of the change (src/webhooks/queue.ts). */

const serverPath = (id: string) => `/infrastructure/${id}`;

/**
 * What a receiver gets of a server: who and where it is, its state and owner, not its notes, description or
 * contacts (those stay behind the API's sign-in).
 */
const serverFacts = (s: Server) => ({
  id: s.id,
  name: s.name,
  environment: s.environment,
  status: s.status,
  hostname: s.hostname,
  ipAddress: s.ipAddress,
  teamOwner: s.teamOwner,
  tags: s.tags,
});

/** server.created / updated / deleted: the server's facts (a deleted one has no page to link). */
export const queueServerEvent = (
  tx: Db,
  event: 'server.created' | 'server.updated' | 'server.deleted',
  server: Server,
  actorId: string | null,
) =>
  queueWebhookEvent(tx, event, {
    server: serverFacts(server),
    ...(event === 'server.deleted' ? {} : { path: serverPath(server.id) }),
    actorId,
  });

/** A status set by hand (the form) or by an agent (pushed metrics): server.status_changed. */
export const queueStatusSet = (tx: Db, server: Server, from: string, via: 'manual' | 'metrics', at = new Date()) =>
  queueWebhookEvent(
    tx,
    'server.status_changed',
    {
      server: {
        id: server.id,
        name: server.name,
        address: server.ipAddress ?? server.hostname,
        environment: server.environment,
      },
      from,
      to: server.status,
      at: at.toISOString(),
      via,
      path: serverPath(server.id),
    },
    at,
  );

/**
 * Status changes the checks found, as they are announced: server.status_changed for each, check.failed when the
 * server went offline, check.recovered when it came back from offline (or a flapping one settled online).
 */
export function queueAnnouncedChanges(tx: Db, changes: StatusChange[]): Promise<number> {
  const events: QueuedEvent[] = changes.flatMap((c) => {
    const data = {
      server: { id: c.serverId, name: c.name, address: c.address, environment: c.environment },
      from: c.from,
      to: c.to,
      at: c.at.toISOString(),
      via: 'check',
      ...(c.flapping ? { flapping: c.flapping } : {}),
      path: serverPath(c.serverId),
    };
    // A flapping server's settled status is announced from = to: it says again where the server ended up.
    const moved = c.from !== c.to || c.flapping === 'settled';
    const out: QueuedEvent[] = [{ event: 'server.status_changed', data, occurredAt: c.at }];
    if (c.to === 'offline' && moved) out.push({ event: 'check.failed', data, occurredAt: c.at });
    else if ((c.to === 'online' || c.to === 'warning') && (c.from === 'offline' || c.flapping === 'settled'))
      out.push({ event: 'check.recovered', data, occurredAt: c.at });
    return out;
  });
  return queueWebhookEvents(tx, events);
}
