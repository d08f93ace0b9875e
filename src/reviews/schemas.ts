import { z } from 'zod';
import { reviewTypes, type ReviewType } from '../knowledge/shared/review-types';

/** The review workflow's inputs (issue 22). */

export const reviewRequestInput = z.object({
  reviewerIds: z
    .array(z.uuid({ error: 'reviewerIds must be user ids.' }), { error: 'reviewerIds must be a list of user ids.' })
    .min(1, 'Choose at least one reviewer.')
    .max(10, 'At most 10 reviewers.'),
});

export const reviewDecisionInput = z
  .object({
    decision: z.enum(['approve', 'changes'], { error: 'decision must be "approve" or "changes".' }),
    comment: z.string({ error: 'comment must be text.' }).trim().max(5000, 'comment is too long.').nullish(),
  })
  .refine((d) => d.decision === 'approve' || !!d.comment, {
    message: 'Say what should change: a comment is required.',
    path: ['comment'],
  });

const perType = <V extends z.ZodType<number | null>>(value: V) =>
  z.strictObject(
    Object.fromEntries(reviewTypes.map((t) => [t, value.optional()])) as Record<ReviewType, z.ZodOptional<V>>,
  );

/** `{ [itemType]: requiredApprovals }`: 0..5 per known type; an unknown type is refused. */
export const approvalsInput = perType(
  z
    .number({ error: 'Approvals must be a whole number from 0 to 5.' })
    .int('Approvals must be a whole number from 0 to 5.')
    .min(0, 'Approvals must be a whole number from 0 to 5.')
    .max(5, 'Approvals must be a whole number from 0 to 5.'),
);

/** `{ [itemType]: days | null }`: the default review interval of new items (null or 0: none). */
export const intervalsInput = perType(
  z
    .number({ error: 'A review interval must be a number of days from 1 to 3650, or null.' })
    .int('A review interval must be a whole number of days.')
    .min(0, 'A review interval must be a number of days from 1 to 3650, or null.')
    .max(3650, 'A review interval must be a number of days from 1 to 3650, or null.')
    .nullable(),
);

/** A review rules value of one type as stored (no nulls: none is left out). */
export const withoutNulls = (values: Partial<Record<ReviewType, number | null | undefined>>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'number')) as Partial<
    Record<ReviewType, number>
  >;

/** What the review panel of an item's read page and editor shows (server-rendered forms). */
export interface ReviewPanelData {
  /** The item's path (/knowledge-base/{id}): the forms post to {path}/review-requests and {path}/reviews. */
  path: string;
  state: 'draft' | 'in_review' | 'published';
  /** The newest revision. */
  version: number;
  publishedVersion: number | null;
  /** Which revision the page shows: the published one (a newer draft waits), the newest, or the draft asked for. */
  showing: 'published' | 'newest' | 'draft';
  /** Approvals the item's type needs (0: the Published switch publishes). */
  needed: number;
  /** Who the reader may send it to (present when they may edit it and it has a revision to review). */
  candidates?: { id: string; name: string }[];
  /** Reviewers asked about the newest revision and their decisions. */
  round: { reviewerName: string; decision: 'approve' | 'changes' | null; comment: string | null }[];
  /** The reader was asked to review the newest revision and has not decided yet. */
  mayDecide: boolean;
}
