import { eq } from 'drizzle-orm';
import { authorize, can, type Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { comments, documents } from '../db/schema';
import { notFound } from '../http/errors';
import type { Item, Space } from '../knowledge/schemas';
import { getItem, isUuid } from '../knowledge/service';

/**
 * Which item a comment request is about, and whether the asker may act: a comment is as invisible as its item
 * (404 for whoever may not read the item, on every route, even when it names a comment by id).
 */

export const ITEM_MISSING = 'Item not found.';
export const COMMENT_MISSING = 'Comment not found.';

/** The live item `user` may comment on: 404 when absent or unreadable. */
export async function commentableItem(db: Db, user: Actor, space: Space, id: string): Promise<Item> {
  const item = await getItem(db, space, id, { viewer: user });
  if (!item) throw notFound(ITEM_MISSING);
  // Commenting is granted to whoever reads the item (getItem just checked that, with their share if any).
  authorize(user, 'item.comment', { ownerId: item.ownerId, visibility: item.visibility, share: 'read' });
  return item;
}

export interface CommentRow {
  id: string;
  documentId: string;
  parentId: string | null;
  authorId: string | null;
  body: string;
  resolvedAt: Date | null;
}

const commentColumns = {
  id: comments.id,
  documentId: comments.documentId,
  parentId: comments.parentId,
  authorId: comments.authorId,
  body: comments.body,
  resolvedAt: comments.resolvedAt,
  space: documents.space,
};

/** A comment and its live item, when `user` may read that item; 404 otherwise (missing, deleted or unreadable). */
export async function commentFor(
  db: Db,
  user: Actor,
  commentId: string,
): Promise<{ comment: CommentRow; item: Item; space: Space }> {
  if (!isUuid(commentId)) throw notFound(COMMENT_MISSING);
  const [row] = await db
    .select(commentColumns)
    .from(comments)
    .innerJoin(documents, eq(documents.id, comments.documentId))
    .where(eq(comments.id, commentId));
  if (!row) throw notFound(COMMENT_MISSING);
  const { space, ...comment } = row;
  const item = await getItem(db, space, comment.documentId, { viewer: user });
  if (!item) throw notFound(COMMENT_MISSING);
  return { comment, item, space };
}

/** Authors edit and delete their own comments; admins any. */
export const mayEdit = (user: Actor, comment: { authorId: string | null }) =>
  (!!user && !!comment.authorId && comment.authorId === user.id) || can(user, 'comment.moderate');

/** The thread's author, the item's owner and admins resolve and reopen a thread. */
export const mayResolve = (
  user: Actor,
  root: { authorId: string | null },
  item: { ownerId: string | null; authorId: string | null },
) =>
  (!!user && (root.authorId === user.id || (item.ownerId ?? item.authorId) === user.id)) ||
  can(user, 'comment.moderate');
