/** Read model: joins knowledge (the items a reader may see, knowledge/access.ts, their review dates and server-change flags). */
import { sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { queryRows, type Db } from '../db/client';
import { readableBy } from '../knowledge/access';

/** Rows of the dashboard's "Due for review" panel. */
export const DUE_ROWS = 5;
/** Items due within this many days are listed beside the overdue ones. */
export const DUE_SOON_DAYS = 14;
/**
 * How many of the nearest due items (by documents_review_due_idx) the panel picks its rows from, the reader's own
 * first: a bounded index range whatever the size of the table.
 */
const CANDIDATES = 50;

export interface DueItem {
  id: string;
  title: string;
  space: 'knowledge' | 'documents';
  /** null: no review date, listed because a linked server changed. */
  reviewDueAt: string | null;
  needsReview: boolean;
  /** A linked server changed since it was last reviewed (issue 23). */
  flagged: boolean;
  /** The reader owns it. */
  mine: boolean;
}

/**
 * The candidate rows of one kind, at most CANDIDATES: due within DUE_SOON_DAYS (newest due date first, from
 * documents_review_due_idx), or flagged by a server change (the latest change first).
 */
function candidates(reader: NonNullable<Actor>, which: 'due' | 'flagged') {
  const flagged = sql`exists (select 1 from document_review_flags f where f.document_id = d.id)`;
  const [where, order] =
    which === 'due'
      ? [
          sql`d.review_due_at is not null and d.review_due_at <= now() + make_interval(days => ${DUE_SOON_DAYS}::int)`,
          sql`d.review_due_at desc`,
        ]
      : [
          sql`d.id in (select f.document_id from document_review_flags f)`,
          sql`(select max(f.at) from document_review_flags f where f.document_id = d.id) desc`,
        ];
  return sql`(select d.id, d.title, d.space, d.review_due_at as due, d.owner_id is not distinct from ${reader.id}::uuid as mine,
        ${flagged} as flagged
      from documents d
      where d.deleted_at is null and ${where} and ${readableBy(reader, 'd')}
      order by ${order} limit ${sql.raw(String(CANDIDATES))})`;
}

/**
 * The live items `reader` may read that are overdue for review, due within DUE_SOON_DAYS days, or flagged by a
 * change of a linked server: the reader's own first, then flagged ones, then the newest due date first, at most
 * DUE_ROWS.
 */
export async function dueForReview(db: Db, reader: Actor): Promise<DueItem[]> {
  if (!reader) return [];
  const rows = await queryRows<{
    id: string;
    title: string;
    space: DueItem['space'];
    due: Date | string | null;
    mine: boolean;
    flagged: boolean;
  }>(
    db,
    sql`select r.id, r.title, r.space, r.due, r.mine, r.flagged from (
          ${candidates(reader, 'due')} union ${candidates(reader, 'flagged')}) r
        order by r.mine desc, r.flagged desc, r.due desc nulls last limit ${sql.raw(String(DUE_ROWS))}`,
  );
  const now = Date.now();
  return rows.map((r) => {
    const due = r.due ? new Date(r.due) : null;
    return {
      id: r.id,
      title: r.title,
      space: r.space,
      reviewDueAt: due?.toISOString() ?? null,
      needsReview: !!r.flagged || (!!due && due.getTime() <= now),
      flagged: !!r.flagged,
      mine: !!r.mine,
    };
  });
}
