import { authorize, can, type Action, type Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { notFound } from '../http/errors';
import { itemResource, type ItemAccessFields } from './access';

/** One item's permission checks for the routes and services that name it by id. */

type ItemAction = Extract<Action, 'item.read' | 'item.write' | 'item.share' | 'item.comment' | 'item.review'>;

/** May `user` do `action` to this item (its visibility, owner and the user's own share decide)? */
export async function mayItem(db: Db, user: Actor, item: ItemAccessFields, action: ItemAction): Promise<boolean> {
  return can(user, action, await itemResource(db, user, item));
}

/**
 * Throws unless `user` may do `action` to the item: 404 when they may not even read it (they must not learn it
 * exists), else 401/403 as the policy says.
 */
export async function authorizeItem(
  db: Db,
  user: Actor,
  item: ItemAccessFields,
  action: ItemAction,
  notFoundMessage = 'Item not found.',
): Promise<void> {
  const resource = await itemResource(db, user, item);
  if (!can(user, 'item.read', resource)) throw notFound(notFoundMessage);
  authorize(user, action, resource);
}
