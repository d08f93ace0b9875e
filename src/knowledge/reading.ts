import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { serverStatusesOfDocument } from '../servers/service';
import { getItem, isUuid } from './items';
import { renderedContent, type RenderedContent } from './rendered-content';
import type { Item, Space } from './schemas';

export interface LinkedServer {
  id: string;
  name: string;
  status: string | null;
}

/** What an item's read page shows: the item, its content rendered, and the servers it is linked to. */
export type ReadableItem = RenderedContent & { item: Item; servers: LinkedServer[] };

/** A live item ready to read, or null when it does not exist in this space, was deleted or the viewer may not read it. */
export async function readItem(db: Db, space: Space, id: string, viewer: Actor): Promise<ReadableItem | null> {
  if (!isUuid(id)) return null;
  const [item, servers] = await Promise.all([getItem(db, space, id, { viewer }), serverStatusesOfDocument(db, id)]);
  if (!item) return null;
  return { item, ...renderedContent(item), servers };
}
