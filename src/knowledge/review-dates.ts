/** Read model: joins reviews (the default review interval of each item type, src/reviews/policy.ts). */
import { sql, type SQL } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import { DENIED_MESSAGE, type Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { documents } from '../db/schema';
import { conflict, forbidden } from '../http/errors';
import { defaultReviewInterval } from '../reviews/policy';
import { clearReviewFlags } from '../runbooks/service';
import { authorizeItem, mayItem } from './item-access';
import { getItem, lockRow } from './items';
import type { ItemAccessFields } from './access';
import type { DocumentInput, Item, Space } from './schemas';
import { SPACES } from './shared';
import { reviewTypeOf } from './shared/review-types';

/**
 * Review dates (issue 22): every N days an item's owner confirms it is still right. review_due_at is kept as
 * coalesce(reviewed_at, created_at) + review_interval_days by the writes below, so the lists, the dashboard and the
 * weekly digest read a range of documents_review_due_idx instead of working it out per row.
 */

const days = (n: number) => sql`make_interval(days => ${n}::int)`;

/** The review columns of a new item: the interval sent, else its type's default; due that many days from now. */
export async function reviewColumnsOnCreate(db: Db, space: Space, input: DocumentInput) {
  const interval =
    input.reviewIntervalDays !== undefined
      ? input.reviewIntervalDays
      : await defaultReviewInterval(db, reviewTypeOf(space, input.templateType));
  return { reviewIntervalDays: interval, reviewDueAt: interval ? sql`now() + ${days(interval)}` : null };
}

/** The review columns an update sets: none when it leaves the interval out, else the interval and its due date. */
export function reviewColumnsOnUpdate(input: DocumentInput): {
  reviewIntervalDays?: number | null;
  reviewDueAt?: SQL | null;
} {
  const interval = input.reviewIntervalDays;
  if (interval === undefined) return {};
  return {
    reviewIntervalDays: interval,
    reviewDueAt: interval ? sql`coalesce(${documents.reviewedAt}, ${documents.createdAt}) + ${days(interval)}` : null,
  };
}

/** SQL condition: a linked server changed since the item was last reviewed or saved (issue 23). */
export const reviewFlagged = (): SQL => sql`${documents.id} in (select f.document_id from document_review_flags f)`;

/**
 * SQL condition: the item needs review: its review date has passed, or it is flagged. Written as one id list (the due
 * date's index range and the flags), so the planner reads those instead of every document as `a or b` would.
 */
export const reviewOverdue = (): SQL =>
  sql`${documents.id} in (select d2.id from documents d2 where d2.deleted_at is null and d2.review_due_at is not null
    and d2.review_due_at <= now() union all select f.document_id from document_review_flags f)`;

/** May `user` mark this item reviewed: whoever may edit it, and its owner. */
export async function mayMarkReviewed(db: Db, user: Actor, item: ItemAccessFields): Promise<boolean> {
  if (user && item.ownerId === user.id) return true;
  return mayItem(db, user, item, 'item.write');
}

/**
 * "Mark as reviewed": reviewed_at = now and the next due date from it, its review flags cleared (issue 23), with an
 * audit event `item.reviewed`. 404 when the user may not read the item, 403 when they may read but neither edit nor
 * own it, 409 when it has neither a review interval nor flags. The item's updated_at and version stay: a review
 * changes no content.
 */
export async function markReviewed(db: Db, space: Space, id: string, user: Actor): Promise<Item> {
  await db.transaction(async (tx) => {
    const row = await lockRow(tx, space, id);
    await authorizeItem(tx, user, row, 'item.read', SPACES[space].messages.missing);
    if (!(await mayMarkReviewed(tx, user, row))) throw forbidden(DENIED_MESSAGE);
    const flagsCleared = await clearReviewFlags(tx, row.id);
    if (!row.reviewIntervalDays && !flagsCleared) {
      throw conflict('This item has no review date: set "Review every N days" first.', 'no_review_interval');
    }
    // Plain SQL: drizzle's update would also set updated_at ($onUpdate).
    await tx.execute(sql`update documents set reviewed_at = now(),
        review_due_at = now() + make_interval(days => review_interval_days) where id = ${row.id}`);
    await recordAudit(tx, {
      actorId: user?.id ?? null,
      action: 'item.reviewed',
      entityType: SPACES[space].audit.entityType,
      entityId: row.id,
      details: { title: row.title, intervalDays: row.reviewIntervalDays, flagsCleared },
    });
  });
  return (await getItem(db, space, id, { viewer: user }))!;
}
