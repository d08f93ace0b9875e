import type { ReviewType } from '../knowledge/shared/review-types';

/** Browser-safe words of the review workflow (issue 22). */

/** The item types' names in the plural, as the review rules and their messages name them. */
export const REVIEW_TYPE_PLURALS: Record<ReviewType, string> = {
  'knowledge-base': 'Knowledge base articles',
  'work-instruction': 'Work instructions',
  'how-to-guide': 'How-to guides',
  'build-document': 'Build documents',
  document: 'Documents',
};

/** "1 approval", "2 approvals". */
export const approvalsText = (n: number) => `${n} approval${n === 1 ? '' : 's'}`;

/** What the Published switch answers when an item of this type needs approvals first (409). */
export const approvalNeededMessage = (type: ReviewType, n: number) =>
  `${REVIEW_TYPE_PLURALS[type]} need ${approvalsText(n)} before they are published. Send it for review.`;

/** The state badge's words. */
export const STATE_LABELS = { draft: 'Draft', in_review: 'In review', published: 'Published' } as const;
