import { kbTypeOf, kbTypes } from './item-types';

/**
 * The item types the review rules are set for (issue 22): the knowledge list filter's names and `document`.
 * An admin sets per type how many approvals publish an item and its default review interval.
 */
export const reviewTypes = [...kbTypes, 'document'] as const;
export type ReviewType = (typeof reviewTypes)[number];

/** The review type of an item, from its space and templateType. */
export const reviewTypeOf = (space: 'documents' | 'knowledge', templateType: string | null | undefined): ReviewType =>
  space === 'documents' ? 'document' : kbTypeOf(templateType);
