import type { Db } from '../db/client';
import { linkedServersOf, linkedServersOfMany, reviewFlagsOf, reviewFlagsOfMany } from '../runbooks/service';
import type { Item } from './schemas';

/**
 * An item as the API answers it (issue 23): with its linked servers' live state and its review flags. A flag makes
 * it need review just as a passed review date does.
 */
export async function withServerLinks(db: Db, item: Item): Promise<Item> {
  const [servers, reviewFlags] = await Promise.all([linkedServersOf(db, item.id), reviewFlagsOf(db, item.id)]);
  return { ...item, servers, reviewFlags, needsReview: item.needsReview || reviewFlags.length > 0 };
}

/** withServerLinks for a list: two queries whatever its length. */
export async function withServerLinksMany(db: Db, items: Item[]): Promise<Item[]> {
  const ids = items.map((i) => i.id);
  const [servers, flags] = await Promise.all([linkedServersOfMany(db, ids), reviewFlagsOfMany(db, ids)]);
  return items.map((item) => {
    const reviewFlags = flags.get(item.id) ?? [];
    return {
      ...item,
      servers: servers.get(item.id) ?? [],
      reviewFlags,
      needsReview: item.needsReview || reviewFlags.length > 0,
    };
  });
}
