import { and, eq, inArray, sql } from 'drizzle-orm';
import { forbidden, badRequest, notFound } from '../http/errors';
import { enforce } from '../http/rate-limit';
import type { Actor } from '../auth/policy';
import { displayNameById } from '../auth/service';
import type { Db } from '../db/client';
import { comments, users } from '../db/schema';
import { recordAudit } from '../audit/service';
import type { Item, Space } from '../knowledge/schemas';
import { notifyUsers } from '../notifications/service';
import { notifyWatchers, watchItem, whoMayRead } from '../knowledge/service';
import { SPACES } from '../knowledge/shared';
import { COMMENT_MISSING, mayEdit, mayResolve, type CommentRow } from './access';
import type { NewCommentInput } from './schemas';
import { commentAnchor, mentionedEmails } from './shared';

/**
 * Comment use cases (issue 22), each one transaction: the comment, the item's comment count, the audit event, the
 * commenter watching the item, and the in-app notifications (mentions, watchers) commit or fail together. The
 * batched e-mail job mails the notifications later; nothing here sends mail.
 */

type User = NonNullable<Actor>;

/** Where a comment's notification opens. */
const linkTo = (space: Space, itemId: string, commentId: string) =>
  `${SPACES[space].path}/${itemId}#${commentAnchor(commentId)}`;

/** Moves the item's comment count by n without touching its updated time (no drizzle $onUpdate). */
const countComments = (tx: Db, itemId: string, n: number) =>
  tx.execute(sql`update documents set comment_count = comment_count + ${n} where id = ${itemId}`);

/** Tells the accounts `emails` names who may read the item that they were mentioned (never the author). */
async function notifyMentioned(tx: Db, space: Space, item: Item, actor: User, commentId: string, emails: string[]) {
  if (!emails.length) return;
  const email = sql<string>`lower(${users.email})`;
  const found = await tx.select({ id: users.id }).from(users).where(inArray(email, emails));
  const readers = await whoMayRead(
    tx,
    item,
    found.map((u) => u.id),
  );
  await notifyUsers(tx, {
    userIds: readers,
    kind: 'mention',
    actorId: actor.id,
    documentId: item.id,
    commentId,
    text: `${await displayNameById(tx, actor.id)} mentioned you on ${item.title}`,
    link: linkTo(space, item.id, commentId),
  });
}

/** A comment's event belongs to its item's trail (the item's Activity lists it); the comment is named in details. */
const audit = (tx: Db, space: Space, item: Item, actor: User, action: string, details: Record<string, unknown>) =>
  recordAudit(tx, {
    actorId: actor.id,
    action: `comment.${action}`,
    entityType: SPACES[space].audit.entityType,
    entityId: item.id,
    details,
  });

/** The thread a new reply joins: the named comment's root (a reply to a reply joins its thread), locked against a delete. */
async function threadRoot(tx: Db, itemId: string, parentId: string): Promise<string> {
  const [parent] = await tx
    .select({ id: comments.id, parentId: comments.parentId })
    .from(comments)
    .where(and(eq(comments.id, parentId), eq(comments.documentId, itemId)))
    .for('share');
  if (!parent) throw badRequest('parentId must name a comment of this item.');
  if (!parent.parentId) return parent.id;
  const [root] = await tx
    .select({ id: comments.id })
    .from(comments)
    .where(eq(comments.id, parent.parentId))
    .for('share');
  if (!root) throw badRequest('parentId must name a comment of this item.');
  return root.id;
}

/** Comments and edits a person may post in ten minutes: each may tell watchers and mentioned people. */
export const COMMENTS_PER_TEN_MINUTES = { limit: 60, windowSeconds: 600 } as const;

const limitComments = (db: Db, actor: User) =>
  enforce(
    db,
    [{ key: `comment:${actor.id}`, ...COMMENTS_PER_TEN_MINUTES }],
    'Too many comments in a short time. Try again in a few minutes.',
  );

/** Posts a comment or a reply; returns its id. */
export async function createComment(
  db: Db,
  space: Space,
  item: Item,
  actor: User,
  input: NewCommentInput,
): Promise<string> {
  await limitComments(db, actor);
  return db.transaction(async (tx) => {
    const parentId = input.parentId ? await threadRoot(tx, item.id, input.parentId) : null;
    const [row] = await tx
      .insert(comments)
      .values({
        documentId: item.id,
        parentId,
        authorId: actor.id,
        body: input.body,
        // A quote anchors a thread; replies belong to their root's.
        quote: parentId ? null : input.quote || null,
      })
      .returning({ id: comments.id });
    await countComments(tx, item.id, 1);
    await audit(tx, space, item, actor, 'created', { commentId: row.id, parentId });
    const name = await displayNameById(tx, actor.id);
    await notifyWatchers(tx, item, {
      kind: 'comment',
      actorId: actor.id,
      commentId: row.id,
      text: `${name} ${parentId ? 'replied' : 'commented'} on ${item.title}`,
      link: linkTo(space, item.id, row.id),
    });
    await notifyMentioned(tx, space, item, actor, row.id, mentionedEmails(input.body));
    await watchItem(tx, item.id, actor.id);
    return row.id;
  });
}

/** The comment locked for a change (404 when it is gone meanwhile). */
async function lockComment(tx: Db, id: string): Promise<CommentRow> {
  const [row] = await tx
    .select({
      id: comments.id,
      documentId: comments.documentId,
      parentId: comments.parentId,
      authorId: comments.authorId,
      body: comments.body,
      resolvedAt: comments.resolvedAt,
    })
    .from(comments)
    .where(eq(comments.id, id))
    .for('update');
  if (!row) throw notFound(COMMENT_MISSING);
  return row;
}

/** Changes a comment's body (its author or an admin); only people it newly mentions are told. */
export async function editComment(db: Db, space: Space, item: Item, actor: User, id: string, body: string) {
  await limitComments(db, actor);
  await db.transaction(async (tx) => {
    const current = await lockComment(tx, id);
    if (!mayEdit(actor, current)) throw forbidden('Only its author or an admin may edit a comment.');
    await tx.update(comments).set({ body, updatedAt: new Date() }).where(eq(comments.id, id));
    await audit(tx, space, item, actor, 'updated', { commentId: id });
    const before = new Set(mentionedEmails(current.body));
    const added = mentionedEmails(body).filter((e) => !before.has(e));
    await notifyMentioned(tx, space, item, actor, id, added);
  });
}

/** Deletes a comment (its author or an admin); a root takes its replies with it. */
export async function deleteComment(db: Db, space: Space, item: Item, actor: User, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockComment(tx, id);
    if (!mayEdit(actor, current)) throw forbidden('Only its author or an admin may delete a comment.');
    // The replies first, counting those really deleted: a reply deleted at the same time is not counted twice.
    const gone = await tx.delete(comments).where(eq(comments.parentId, id)).returning({ id: comments.id });
    const replies = gone.length;
    await tx.delete(comments).where(eq(comments.id, id));
    await countComments(tx, item.id, -(1 + replies));
    await audit(tx, space, item, actor, 'deleted', { commentId: id, parentId: current.parentId, replies });
  });
}

/** Resolves (or reopens) a thread: its author, the item's owner or an admin; the same state again changes nothing. */
export async function setResolved(
  db: Db,
  space: Space,
  item: Item,
  actor: User,
  id: string,
  resolved: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    const root = await lockComment(tx, id);
    if (root.parentId) throw badRequest('Resolve the thread through its first comment, not a reply.');
    if (!mayResolve(actor, root, item))
      throw forbidden("Only the thread's author, the item's owner or an admin may resolve or reopen it.");
    if (!!root.resolvedAt === resolved) return;
    await tx
      .update(comments)
      .set({
        resolvedAt: resolved ? new Date() : null,
        resolvedBy: resolved ? actor.id : null,
        // updatedAt says when the body was last edited: resolving is not an edit.
        updatedAt: sql`${comments.updatedAt}`,
      })
      .where(eq(comments.id, id));
    await audit(tx, space, item, actor, resolved ? 'resolved' : 'reopened', { commentId: id });
  });
}
