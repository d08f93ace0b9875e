import { sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import type { Space } from '../knowledge/schemas';
import { readableBy } from '../knowledge/service';
import { itemHref } from '../knowledge/shared';

/**
 * A reviewer's open requests (issue 22): asked to review an item's newest revision, still in review, not decided,
 * and an item they may still read. The partial index review_requests_open_idx finds their undecided rows.
 */

export interface OpenRequest {
  id: string;
  documentId: string;
  space: Space;
  title: string;
  link: string;
  version: number;
  requestedBy: string | null;
  requestedAt: string;
}

const openRows = (reviewer: NonNullable<Actor>, join = sql``) => sql`from review_requests rr
  join documents d on d.id = rr.document_id and d.version = rr.version
    and d.state = 'in_review' and d.deleted_at is null
  ${join}
  where rr.reviewer_id = ${reviewer.id} and rr.decided_at is null and ${readableBy(reviewer, 'd')}`;

/** The reviewer's open requests, newest first. */
export async function openRequests(db: Db, reviewer: Actor): Promise<OpenRequest[]> {
  if (!reviewer) return [];
  const rows = await queryRows<{
    id: string;
    document_id: string;
    space: Space;
    title: string;
    version: number;
    requester: string | null;
    created_at: Date | string;
  }>(
    db,
    sql`select rr.id, rr.document_id, d.space, d.title, rr.version, rr.created_at,
          coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email) as requester
        ${openRows(reviewer, sql`left join users u on u.id = rr.requested_by`)}
        order by rr.created_at desc limit 200`,
  );
  return rows.map((r) => ({
    id: r.id,
    documentId: r.document_id,
    space: r.space,
    title: r.title,
    link: `${itemHref(r.space, r.document_id, r.title)}?revision=draft`,
    version: Number(r.version),
    requestedBy: r.requester,
    requestedAt: new Date(r.created_at).toISOString(),
  }));
}

/** How many open requests the reviewer has (the sidebar badge). */
export async function openRequestCount(db: Db, reviewer: Actor): Promise<number> {
  if (!reviewer) return 0;
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n ${openRows(reviewer)}`);
  return Number(row?.n ?? 0);
}
