/** Read model: joins knowledge (the items a reader may see, knowledge/access.ts, and their review dates). */
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
  reviewDueAt: string;
  needsReview: boolean;
  /** The reader owns it. */
  mine: boolean;
}

/**
 * The live items `reader` may read that are overdue for review or due within DUE_SOON_DAYS days: the reader's own
 * first, then the newest due date first, at most DUE_ROWS.
 */
export async function dueForReview(db: Db, reader: Actor): Promise<DueItem[]> {
  if (!reader) return [];
  const rows = await queryRows<{
    id: string;
    title: string;
    space: DueItem['space'];
    due: Date | string;
    mine: boolean;
  }>(
    db,
    sql`select r.id, r.title, r.space, r.due, r.mine from (
          select d.id, d.title, d.space, d.review_due_at as due, d.owner_id is not distinct from ${reader.id}::uuid as mine
          from documents d
          where d.deleted_at is null and d.review_due_at is not null
            and d.review_due_at <= now() + make_interval(days => ${DUE_SOON_DAYS}::int)
            and ${readableBy(reader, 'd')}
          order by d.review_due_at desc limit ${sql.raw(String(CANDIDATES))}) r
        order by r.mine desc, r.due desc limit ${sql.raw(String(DUE_ROWS))}`,
  );
  const now = Date.now();
  return rows.map((r) => {
    const due = new Date(r.due);
    return {
      id: r.id,
      title: r.title,
      space: r.space,
      reviewDueAt: due.toISOString(),
      needsReview: due.getTime() <= now,
      mine: !!r.mine,
    };
  });
}
