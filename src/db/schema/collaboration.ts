import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common';
import { documents } from './documents';
import { users } from './users';
import { notificationKinds, reviewDecisions } from './values';

/** Comment threads on knowledge items and documents (issue 22): a root comment and its replies (parent = root). */
export const comments = pgTable(
  'comments',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** The thread's root comment; null for a root. Deleting a root deletes its replies. */
    parentId: uuid('parent_id').references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** Markdown; rendered and sanitised like item content. */
    body: text('body').notNull(),
    /** The passage of the item's text the thread is about (roots only), or null. */
    quote: text('quote'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('comments_document_idx').on(t.documentId, t.createdAt), index('comments_parent_idx').on(t.parentId)],
);

/** Who watches an item: changes, versions, comments and review decisions notify them. */
export const documentWatchers = pgTable(
  'document_watchers',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.userId] }), index('document_watchers_user_idx').on(t.userId)],
);

/**
 * One reviewer asked to review one revision (the item's version when it was sent); their decision when given.
 * A new revision sent for review is a new round: new rows, the old ones stay as history.
 */
export const reviewRequests = pgTable(
  'review_requests',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** The revision under review (documents.version when it was sent). */
    version: integer('version').notNull(),
    reviewerId: uuid('reviewer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    decision: varchar('decision', { length: 10, enum: reviewDecisions }),
    comment: text('comment'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('review_requests_round_reviewer_uq').on(t.documentId, t.version, t.reviewerId),
    // A reviewer's open requests (the sidebar badge and "Review requests").
    index('review_requests_open_idx').on(t.reviewerId, t.createdAt).where(sql`${t.decidedAt} is null`),
  ],
);

/**
 * The bell's notifications (in-app). `emailedAt` is set when the batched e-mail that carried it was queued (or
 * when the user gets no e-mail), so a burst of changes sends one message.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 30, enum: notificationKinds }).notNull(),
    /** Who caused it (null: the system). */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'cascade' }),
    commentId: uuid('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    /** One line in words ("Ada mentioned you on Patch Windows servers"). */
    text: text('text').notNull(),
    /** In-app path it opens (/knowledge-base/{id}#comment-{id}). */
    link: varchar('link', { length: 500 }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    index('notifications_unmailed_idx').on(t.createdAt).where(sql`${t.emailedAt} is null`),
  ],
);
