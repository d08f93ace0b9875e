import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { displayNameOf } from '../auth/service';
import type { Db } from '../db/client';
import { reviewRequests, users } from '../db/schema';
import type { ItemState, ReviewDecision } from '../db/schema/values';
import { conflict } from '../http/errors';
import { reviewTypeOf } from '../knowledge/shared/review-types';
import type { TemplateType } from '../knowledge/shared/item-types';
import { requiredApprovals } from './policy';
import { approvalNeededMessage } from './shared';

/**
 * The review workflow's part in every save (issue 22), asked by the knowledge service: which state and published
 * version a create, update or restore leaves. Imports nothing of the knowledge service, so it may call this.
 */

export { getReviewPolicy, requiredApprovals, defaultReviewInterval, setReviewPolicy } from './policy';

/** An item's workflow fields after a save. */
export interface RevisionState {
  state: ItemState;
  isPublished: boolean;
  publishedVersion: number | null;
}

/** The item before the save (null: a create). */
export interface SavedFrom {
  state: ItemState;
  publishedVersion: number | null;
  templateType: TemplateType | null;
}

/**
 * The state a save leaves. With no approvals required for the item's type, the Published switch works as it always
 * did: published at the new version, or a draft that readers see as it is. With approvals required, every save is a
 * draft revision (readers keep the published one) and switching Published on is refused (409): review publishes.
 * A published item saved with the switch still on (the editor sends it back as it was) is not a request to publish.
 */
export async function savedRevisionState(
  db: Db,
  space: 'documents' | 'knowledge',
  before: SavedFrom | null,
  input: { isPublished?: boolean; templateType?: TemplateType | null },
  version: number,
): Promise<RevisionState> {
  const type = reviewTypeOf(space, input.templateType !== undefined ? input.templateType : before?.templateType);
  const needed = await requiredApprovals(db, type);
  const wasPublished = before?.state === 'published';
  if (needed === 0) {
    const published = input.isPublished ?? wasPublished;
    return published
      ? { state: 'published', isPublished: true, publishedVersion: version }
      : { state: 'draft', isPublished: false, publishedVersion: null };
  }
  if (input.isPublished === true && !wasPublished) {
    throw conflict(approvalNeededMessage(type, needed), 'approval_required');
  }
  return { state: 'draft', isPublished: false, publishedVersion: before?.publishedVersion ?? null };
}

/** One reviewer's decision on one revision, for Version History. */
export interface VersionReview {
  reviewerName: string;
  decision: ReviewDecision;
  comment: string | null;
  decidedAt: string;
}

/** The decisions given on each revision of an item (version → decisions, oldest first). */
export async function reviewsByVersion(db: Db, documentId: string): Promise<Map<number, VersionReview[]>> {
  const rows = await db
    .select({
      version: reviewRequests.version,
      decision: reviewRequests.decision,
      comment: reviewRequests.comment,
      decidedAt: reviewRequests.decidedAt,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(reviewRequests)
    .innerJoin(users, eq(users.id, reviewRequests.reviewerId))
    .where(and(eq(reviewRequests.documentId, documentId), isNotNull(reviewRequests.decidedAt)))
    .orderBy(asc(reviewRequests.decidedAt));
  const byVersion = new Map<number, VersionReview[]>();
  for (const r of rows) {
    const list = byVersion.get(r.version) ?? [];
    list.push({
      reviewerName: displayNameOf({ firstName: r.firstName, lastName: r.lastName, email: r.email }),
      decision: r.decision!,
      comment: r.comment,
      decidedAt: r.decidedAt!.toISOString(),
    });
    byVersion.set(r.version, list);
  }
  return byVersion;
}
