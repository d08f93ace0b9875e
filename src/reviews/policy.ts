import { eq } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { appSettings } from '../db/schema';
import { reviewTypes, type ReviewType } from '../knowledge/shared/review-types';

/**
 * The workspace's review rules per item type (app_settings.review_policy): how many approvals publish an item
 * (0 or missing: none, the Published switch publishes at once) and the default review interval in days of a new
 * item (missing: none).
 */
export interface ReviewPolicy {
  approvals: Partial<Record<ReviewType, number>>;
  intervals: Partial<Record<ReviewType, number>>;
}

const known = (o: unknown): Record<string, number> =>
  Object.fromEntries(
    Object.entries(o && typeof o === 'object' ? o : {}).filter(
      ([k, v]) => (reviewTypes as readonly string[]).includes(k) && Number.isInteger(v) && v > 0,
    ),
  );

/** The stored rules (empty when never set). */
export async function getReviewPolicy(db: Db): Promise<ReviewPolicy> {
  const [row] = await db
    .select({ policy: appSettings.reviewPolicy })
    .from(appSettings)
    .where(eq(appSettings.id, 1))
    .limit(1);
  const stored = (row?.policy ?? {}) as { approvals?: unknown; intervals?: unknown };
  return { approvals: known(stored.approvals), intervals: known(stored.intervals) };
}

/** Approvals needed to publish an item of this type (0: none). */
export async function requiredApprovals(db: Db, type: ReviewType): Promise<number> {
  return (await getReviewPolicy(db)).approvals[type] ?? 0;
}

/** Default review interval of a new item of this type (null: none). */
export async function defaultReviewInterval(db: Db, type: ReviewType): Promise<number | null> {
  return (await getReviewPolicy(db)).intervals[type] ?? null;
}

/**
 * Replaces one half of the rules (`approvals` or `intervals`; a type set to 0 or left out has none) with an audit
 * event; returns the whole policy as saved. The row is locked so two admins saving at once do not lose a half.
 */
export async function setReviewPolicy(
  db: Db,
  actorId: string,
  half: keyof ReviewPolicy,
  values: Partial<Record<ReviewType, number>>,
): Promise<ReviewPolicy> {
  return db.transaction(async (tx) => {
    await tx.insert(appSettings).values({ id: 1 }).onConflictDoNothing();
    await tx.select({ id: appSettings.id }).from(appSettings).where(eq(appSettings.id, 1)).for('update');
    const before = await getReviewPolicy(tx);
    const next: ReviewPolicy = { ...before, [half]: known(values) };
    await tx.update(appSettings).set({ reviewPolicy: next, updatedAt: new Date() }).where(eq(appSettings.id, 1));
    await recordAudit(tx, {
      actorId,
      action: 'settings.review_policy_changed',
      entityType: 'settings',
      entityId: 'review-policy',
      details: { before: before[half], after: next[half], half },
    });
    return next;
  });
}
