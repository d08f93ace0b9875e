import { useEffect, useState } from 'react';
import { type PreviewItem, SPACES } from '../../../src/knowledge/shared';
import type { ServerSummary } from '../../../src/runbooks/shared';
import { pollWhileVisible } from '../../../src/runbooks/shared/poll';
import { ApiError, api } from '../api';

/** A 4xx: signed out, or the item is gone or closed to this reader — nothing more to ask. */
const final = (e: unknown) => e instanceof ApiError && e.status >= 400 && e.status < 500;

/**
 * The preview's linked servers, kept fresh from GET /api/knowledge-base/{id}/servers every `every` ms by the read
 * page's rule (src/runbooks/shared/poll.ts). No request for an item without linked servers; a new item starts from
 * its own answer and stops the old item's refresh.
 */
export function useLiveServers(item: PreviewItem | null, every: number): ServerSummary[] {
  const [shown, setShown] = useState(item);
  const [servers, setServers] = useState(item?.servers ?? []);
  if (item !== shown) {
    setShown(item);
    setServers(item?.servers ?? []);
  }
  const id = item?.id;
  const linked = (item?.servers?.length ?? 0) > 0;
  useEffect(() => {
    if (!id || !linked) return;
    let live = true;
    const stop = pollWhileVisible(every, async () => {
      try {
        const fresh = await api<ServerSummary[]>('GET', `${SPACES.knowledge.api}/${id}/servers`, undefined, {
          cache: 'no-store',
        });
        if (live) setServers(fresh);
        return fresh.length > 0;
      } catch (e) {
        return !final(e);
      }
    });
    return () => {
      live = false;
      stop();
    };
  }, [id, linked, every]);
  return servers;
}
