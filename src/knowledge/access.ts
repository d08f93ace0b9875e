import { sql, type SQL } from 'drizzle-orm';
import { can, type Actor, type Resource } from '../auth/policy';
import { queryRows, type Db } from '../db/client';

/**
 * Who may see which knowledge item or document, for every surface that lists, counts, searches or quotes
 * them (lists, category tree, dashboard, search, history, deleted items, reports, e-mails, Ops AI). The rule
 * itself is the policy's (`can(user, 'item.read', …)`); this is the same rule as SQL, so a surface filters in
 * its query instead of after it. Everyone-visible items pass at once; restricted ones (few, with their own
 * partial index) need their owner or a live share.
 */

/** SQL condition: the share row of `table` (a document_shares alias) is live: not revoked, not expired. */
export const liveShare = (table = 's') => {
  const t = sql.identifier(table);
  return sql`(${t}.revoked_at is null and (${t}.expires_at is null or ${t}.expires_at > now()))`;
};

/** A live share of the item with this user. */
const liveShareOf = (itemId: SQL | string, userId: string) =>
  sql`exists (select 1 from document_shares s
        where s.document_id = ${itemId} and s.shared_with_user_id = ${userId} and ${liveShare()})`;

/**
 * SQL condition: `user` may read the item row whose table (or alias) is `table` (default documents).
 * Admins read everything; nobody signed out reads anything.
 */
export function readableBy(user: Actor, table = 'documents'): SQL {
  if (!user) return sql`false`;
  if (readsEverything(user)) return sql`true`;
  const t = sql.identifier(table);
  return sql`(${t}.visibility = 'everyone' or ${t}.owner_id = ${user.id} or ${liveShareOf(sql`${t}.id`, user.id)})`;
}

/** The share permission a user holds on an item (the strongest live one), or null. */
export async function shareOf(db: Db, itemId: string, userId: string): Promise<'read' | 'write' | null> {
  const rows = await queryRows<{ permission: 'read' | 'write' }>(
    db,
    sql`select permission from document_shares s
        where s.document_id = ${itemId} and s.shared_with_user_id = ${userId} and ${liveShare()}
        order by s.permission = 'write' desc limit 1`,
  );
  return rows[0]?.permission ?? null;
}

/** An item's fields the policy needs. */
export interface ItemAccessFields {
  id: string;
  ownerId: string | null;
  visibility: 'everyone' | 'restricted';
}

/** The policy resource for an item as `user` sees it (their share looked up only when it can matter). */
export async function itemResource(db: Db, user: Actor, item: ItemAccessFields): Promise<Resource> {
  const share =
    user && item.visibility === 'restricted' && item.ownerId !== user.id ? await shareOf(db, item.id, user.id) : null;
  return { ownerId: item.ownerId, visibility: item.visibility, share };
}

/**
 * SQL subquery: the live restricted items `user` may read (owner or a live share), as rows (space, category
 * ('' = Uncategorized), id), found from the owner index and the user's shares, never by scanning every
 * restricted item. With document_counts.restricted it gives a reader's totals:
 * live − restricted + what of the restricted they may read.
 */
export function readableRestricted(user: { id: string }, space?: string): SQL {
  const inSpace = space === undefined ? sql`true` : sql`d.space = ${space}`;
  return sql`(select d.space, coalesce(d.category, '') as category, d.id from documents d
      where d.owner_id = ${user.id} and d.visibility = 'restricted' and d.deleted_at is null and ${inSpace}
    union
    select d.space, coalesce(d.category, '') as category, d.id from document_shares s join documents d on d.id = s.document_id
      where s.shared_with_user_id = ${user.id} and ${liveShare()}
        and d.visibility = 'restricted' and d.deleted_at is null and ${inSpace})`;
}

/** May this user read every item, restricted or not (admins)? Their totals are the kept counters as they are. */
export const readsEverything = (user: Actor) => !!user && can(user, 'item.read', { visibility: 'restricted' });
