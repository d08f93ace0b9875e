import type { ItemState } from '../../db/schema/values';
import type { ReviewFlag, ServerSummary } from '../../runbooks/shared';
import type { TemplateType } from './item-types';

/**
 * The fields of a knowledge item or document, once: the selected columns, the version snapshot, the editor's
 * fields and payload, and what the islands receive are all derived from these lists.
 */

/** Optional text an editor sets (null when empty). */
export const OPTIONAL_TEXT_FIELDS = ['excerpt', 'technology', 'domain', 'category'] as const;

/** Everything an edit sets besides title and content; kept in each version's snapshot so a restore brings it back. */
export const SNAPSHOT_FIELDS = [
  ...OPTIONAL_TEXT_FIELDS,
  'tags',
  'isPublished',
  'isTemplate',
  'templateType',
  'attachedImages',
  'formModel',
] as const;

/** Every field a create or an update sets. */
export const EDITABLE_FIELDS = ['title', 'content', ...SNAPSHOT_FIELDS] as const;

/** An item as stored and as the API returns it (less its author). */
export const ITEM_FIELDS = [
  'id',
  ...EDITABLE_FIELDS,
  'version',
  'authorId',
  'ownerId',
  'visibility',
  'state',
  'publishedVersion',
  'reviewIntervalDays',
  'reviewedAt',
  'reviewDueAt',
  'commentCount',
  'createdAt',
  'updatedAt',
] as const;

/** What the editor island receives of an item. */
export const EDITOR_ITEM_FIELDS = ['id', ...EDITABLE_FIELDS, 'version', 'updatedAt', 'reviewIntervalDays'] as const;

/** What the category view's preview shows of an item (besides its rendered HTML and linked servers). */
export const PREVIEW_FIELDS = [
  'id',
  'title',
  'category',
  'templateType',
  'isTemplate',
  'version',
  'updatedAt',
  'excerpt',
  'tags',
  'ownerId',
  'visibility',
] as const;

/** The named fields of an object (the lists above applied to a row or an item). */
export function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, from[k]])) as Pick<T, K>;
}

/** Who may read an item: everyone, or only its owner, admins and the users it is shared with. */
export type ItemVisibility = 'everyone' | 'restricted';

export interface ItemAuthor {
  firstName: string | null;
  lastName: string | null;
  email: string;
}

/** A document or knowledge item as JSON (dates as ISO strings): ITEM_FIELDS and its author. */
export interface Item {
  id: string;
  title: string;
  content: string;
  excerpt: string | null;
  technology: string | null;
  domain: string | null;
  category: string | null;
  tags: string[];
  version: number;
  isPublished: boolean;
  isTemplate: boolean;
  templateType: TemplateType | null;
  attachedImages: string[];
  /** As stored: a form model (validated since it was validated on the way in; older rows may hold any object). */
  formModel: Record<string, unknown> | null;
  authorId: string | null;
  /** Its owner (the creator, transferable): changes its visibility and shares. */
  ownerId: string | null;
  visibility: ItemVisibility;
  /** Review workflow (issue 22): draft → in_review → published (isPublished is `state === 'published'`). */
  state: ItemState;
  /** The version readers see while a newer revision is a draft or in review; null: never published. */
  publishedVersion: number | null;
  /** Review date: every N days the owner confirms the item is still right (null: none). */
  reviewIntervalDays: number | null;
  /** The last "Mark as reviewed". */
  reviewedAt: string | null;
  /** When the next review is due (last review, or creation, + interval). */
  reviewDueAt: string | null;
  /** The review date has passed. */
  needsReview: boolean;
  /** Comments on it, resolved or not. */
  commentCount: number;
  createdAt: string;
  updatedAt: string;
  author?: ItemAuthor | null;
  /** The owner's name and e-mail (single-item answers). */
  owner?: ItemAuthor | null;
  /** The servers it is linked to, with their live state (issue 23; API answers). */
  servers?: ServerSummary[];
  /** What changed on a linked server since it was last reviewed or edited (issue 23; API answers). */
  reviewFlags?: ReviewFlag[];
}

/** One row of the version list (spec §3 Document version + authorName). */
export interface VersionItem {
  id: string;
  version: number;
  title: string;
  content: string;
  authorName: string;
  createdAt: string;
  changeLog: string | null;
  /** Review decisions given on this revision (issue 22): who approved or asked for changes, and when. */
  reviews?: { reviewerName: string; decision: 'approve' | 'changes'; comment: string | null; decidedAt: string }[];
  /** The revision readers see (the item's published version). */
  published?: boolean;
  /** A revision newer than the published one: a draft or in review. */
  draft?: boolean;
}
