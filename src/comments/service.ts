import { asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { comments, users } from '../db/schema';
import type { Item } from '../knowledge/schemas';
import { mayEdit, mayResolve } from './access';
import { mentionedNames, renderComment } from './render';
import type { CommentAuthor, CommentView, Thread } from './schemas';
import { threadsOf } from './shared';

/** Reading an item's comments (issue 22); the writes are in commands.ts. */

export { commentableItem, commentFor } from './access';

const resolvers = alias(users, 'resolvers');

const person = (p: { id: string | null; firstName: string | null; lastName: string | null; email: string | null }) =>
  p.id && p.email
    ? ({
        id: p.id,
        name: [p.firstName, p.lastName].filter(Boolean).join(' ').trim() || p.email,
        email: p.email,
      } satisfies CommentAuthor)
    : null;

/** The rows of comments with their authors and resolvers, oldest first. */
function selectComments(db: Db) {
  return db
    .select({
      id: comments.id,
      body: comments.body,
      parentId: comments.parentId,
      quote: comments.quote,
      authorId: comments.authorId,
      createdAt: comments.createdAt,
      updatedAt: comments.updatedAt,
      resolvedAt: comments.resolvedAt,
      author: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
      resolver: {
        id: resolvers.id,
        firstName: resolvers.firstName,
        lastName: resolvers.lastName,
        email: resolvers.email,
      },
    })
    .from(comments)
    .leftJoin(users, eq(users.id, comments.authorId))
    .leftJoin(resolvers, eq(resolvers.id, comments.resolvedBy))
    .$dynamic();
}
type Row = Awaited<ReturnType<ReturnType<typeof selectComments>['execute']>>[number];

/** Rows → the API's comments for `viewer` (bodies rendered, mentions named, what they may do). */
async function toViews(db: Db, viewer: Actor, item: Item, rows: Row[]): Promise<CommentView[]> {
  const names = await mentionedNames(
    db,
    rows.map((r) => r.body),
  );
  return rows.map((r) => ({
    id: r.id,
    body: r.body,
    html: renderComment(r.body, names),
    author: person(r.author ?? { id: null, firstName: null, lastName: null, email: null }),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    parentId: r.parentId,
    quote: r.quote,
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
    resolvedBy: person(r.resolver ?? { id: null, firstName: null, lastName: null, email: null }),
    canEdit: mayEdit(viewer, r),
    canResolve: !r.parentId && mayResolve(viewer, r, item),
  }));
}

/** The item's comments, oldest first (the caller has checked that `viewer` may read the item). */
export async function listComments(db: Db, viewer: Actor, item: Item): Promise<CommentView[]> {
  const rows = await selectComments(db)
    .where(eq(comments.documentId, item.id))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  return toViews(db, viewer, item, rows);
}

/** One comment as `viewer` sees it. */
export async function getComment(db: Db, viewer: Actor, item: Item, id: string): Promise<CommentView> {
  const rows = await selectComments(db).where(eq(comments.id, id));
  const [view] = await toViews(db, viewer, item, rows);
  return view;
}

/** The item's threads as `viewer` sees them. */
export async function listThreads(db: Db, viewer: Actor, item: Item): Promise<Thread[]> {
  return threadsOf(await listComments(db, viewer, item));
}
