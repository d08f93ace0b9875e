/**
 * Read model: joins knowledge (items, who may read them), runbooks (server_documents), servers (team_owner) and team
 * (the team directory's department of the user's entry).
 *
 * What one user keeps offline: the items they chose ("Keep offline": offline_keeps) and, without a row there, the
 * items linked to a server their team owns. A user's team is the department of their entry in the team directory
 * (same e-mail address, entry not inactive): the directory is kept by editors and admins, so nobody joins a team by
 * saying so (Settings › Health report covers is any user's choice and says only what their report covers). A server's
 * team is its Team owner, compared trimmed and case-insensitively. Only live items the user may read are listed.
 */
import { sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { readableBy } from '../knowledge/service';
import { itemHref, type Space } from '../knowledge/shared';

/** How many items the pack lists at most (kept ones first): a bound on what a browser stores. */
export const PACK_LIMIT = 300;

/** One page of the pack. */
export interface PackItem {
  id: string;
  space: Space;
  title: string;
  /** The item's read page (canonical address). */
  url: string;
  version: number;
  updatedAt: string;
  /**
   * What the page shows changes with (version, last update, comments): a copy saved with another stamp is stale.
   */
  stamp: string;
  /** The user chose "Keep offline". */
  kept: boolean;
  /** The servers of the user's team it is linked to (why it is kept without a choice), by name. */
  servers: string[];
}

interface Row {
  id: string;
  space: Space;
  title: string;
  version: number;
  updated_at: string | Date;
  comment_count: number;
  kept: boolean;
  servers: string[] | null;
}

/** The user's team as a lower-case name (SQL rows `team`): the department of their entry in the team directory. */
const teamsOf = (userId: string) => sql`
  select lower(btrim(m.department)) as team from team_members m join users u on lower(u.email) = lower(m.email)
    where u.id = ${userId} and m.status <> 'inactive' and btrim(coalesce(m.department, '')) <> ''`;

/** The teams whose servers' runbooks the user keeps, as the servers spell them (for the /offline page). */
export async function teamNamesOf(db: Db, userId: string): Promise<string[]> {
  const rows = await queryRows<{ team: string }>(
    db,
    sql`select distinct btrim(s.team_owner) as team from servers s
        where lower(btrim(s.team_owner)) in (${teamsOf(userId)}) order by 1`,
  );
  return rows.map((r) => r.team);
}

/** The pack of `user`: kept items first, then by title; at most PACK_LIMIT. */
export async function packOf(db: Db, user: NonNullable<Actor>): Promise<PackItem[]> {
  const rows = await queryRows<Row>(
    db,
    sql`with teams as (${teamsOf(user.id)}),
      team_items as (
        select sd.document_id as id, array_agg(distinct s.name order by s.name) as servers
        from servers s join server_documents sd on sd.server_id = s.id
        where lower(btrim(s.team_owner)) in (select team from teams)
        group by sd.document_id
      ),
      kept as (select k.item_id as id from offline_keeps k where k.user_id = ${user.id})
      select d.id, d.space, d.title, d.version, d.updated_at, d.comment_count,
        (kept.id is not null) as kept, ti.servers
      from documents d
        left join kept on kept.id = d.id
        left join team_items ti on ti.id = d.id
      where (kept.id is not null or ti.id is not null) and d.deleted_at is null and ${readableBy(user, 'd')}
      order by (kept.id is not null) desc, d.title, d.id
      limit ${PACK_LIMIT}`,
  );
  return rows.map((r) => {
    const updatedAt = new Date(r.updated_at).toISOString();
    return {
      id: r.id,
      space: r.space,
      title: r.title,
      url: itemHref(r.space, r.id, r.title),
      version: Number(r.version),
      updatedAt,
      stamp: `${r.version}:${updatedAt}:${r.comment_count}`,
      kept: !!r.kept,
      servers: r.servers ?? [],
    };
  });
}

/**
 * Why one item is in the user's pack: 'kept' (their choice), 'team' (linked to a server of their team), or null.
 * One query, for the item's read page.
 */
export async function offlineStateOf(db: Db, userId: string, itemId: string): Promise<'kept' | 'team' | null> {
  const [row] = await queryRows<{ kept: boolean; team: boolean }>(
    db,
    sql`select
      exists (select 1 from offline_keeps k where k.user_id = ${userId} and k.item_id = ${itemId}) as kept,
      exists (select 1 from server_documents sd join servers s on s.id = sd.server_id
        where sd.document_id = ${itemId} and lower(btrim(s.team_owner)) in (${teamsOf(userId)})) as team`,
  );
  return row?.kept ? 'kept' : row?.team ? 'team' : null;
}
