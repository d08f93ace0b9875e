import { and, asc, eq } from 'drizzle-orm';
import { displayNameOf } from '../auth/service';
import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { reviewRequests, users } from '../db/schema';
import type { Item, Space } from '../knowledge/schemas';
import { SPACES } from '../knowledge/shared';
import { reviewTypeOf } from '../knowledge/shared/review-types';
import { requiredApprovals } from './policy';
import { eligibleReviewers } from './reviewers';
import type { ReviewPanelData } from './schemas';

/** The review panel of an item's read page and editor: its state, the round in progress and what the reader may do. */

/** The requests on the newest revision, oldest first, with reviewer names. */
async function roundOf(db: Db, itemId: string, version: number) {
  return db
    .select({
      reviewerId: reviewRequests.reviewerId,
      decision: reviewRequests.decision,
      comment: reviewRequests.comment,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(reviewRequests)
    .innerJoin(users, eq(users.id, reviewRequests.reviewerId))
    .where(and(eq(reviewRequests.documentId, itemId), eq(reviewRequests.version, version)))
    .orderBy(asc(reviewRequests.createdAt));
}

/**
 * The panel for `viewer` on `newest` (the item's newest revision, which they may read); `mayWrite` is whether they may
 * edit it, `showing` which revision the page shows.
 */
export async function reviewPanelFor(
  db: Db,
  viewer: Actor,
  space: Space,
  newest: Item,
  opts: { mayWrite: boolean; showing: ReviewPanelData['showing'] },
): Promise<ReviewPanelData> {
  const [needed, round] = await Promise.all([
    requiredApprovals(db, reviewTypeOf(space, newest.templateType)),
    roundOf(db, newest.id, newest.version),
  ]);
  const unpublished = !(newest.state === 'published' && newest.publishedVersion === newest.version);
  const sendable = opts.mayWrite && unpublished && (needed > 0 || newest.state === 'in_review');
  const candidates = sendable
    ? await eligibleReviewers(db, newest, undefined, [viewer?.id ?? '', newest.authorId ?? ''])
    : undefined;
  const mine = round.find((r) => r.reviewerId === viewer?.id);
  return {
    path: `${SPACES[space].path}/${newest.id}`,
    state: newest.state,
    version: newest.version,
    publishedVersion: newest.publishedVersion,
    showing: opts.showing,
    needed,
    ...(candidates ? { candidates } : {}),
    round: round.map((r) => ({ reviewerName: displayNameOf(r), decision: r.decision, comment: r.comment })),
    mayDecide: newest.state === 'in_review' && !!mine && !mine.decision,
  };
}
