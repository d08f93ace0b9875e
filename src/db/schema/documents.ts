import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tsvector, updatedAt } from './common';
import { itemStates, spaces, templateTypes, visibilities } from './values';
import { users } from './users';

/** Knowledge items and documents share this table; `space` tells them apart. */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    space: varchar('space', { length: 20, enum: spaces }).notNull(),
    title: varchar('title', { length: 255 }).notNull(),
    content: text('content').notNull(),
    excerpt: text('excerpt'),
    technology: varchar('technology', { length: 50 }),
    domain: varchar('domain', { length: 20 }),
    category: varchar('category', { length: 100 }),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who owns the item (its creator, transferable): may change its visibility and shares. */
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    visibility: varchar('visibility', { length: 20, enum: visibilities }).notNull().default('everyone'),
    version: integer('version').notNull().default(1),
    isPublished: boolean('is_published').notNull().default(false),
    /** Review workflow (issue 22): draft → in_review → published; is_published stays `state = 'published'`. */
    state: varchar('state', { length: 20, enum: itemStates }).notNull().default('draft'),
    /**
     * The version readers see while a newer revision is a draft or in review (null: never published). The row holds
     * the newest revision, so the editor and the 409 check work as before.
     */
    publishedVersion: integer('published_version'),
    /** Review dates (issue 22): every N days the owner confirms the item is still right; null = no review date. */
    reviewIntervalDays: integer('review_interval_days'),
    /** The last "Mark as reviewed" (null: never; the review date then counts from creation). */
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** coalesce(reviewed_at, created_at) + review_interval_days, kept by the code that sets either. */
    reviewDueAt: timestamp('review_due_at', { withTimezone: true }),
    /** Comments on the item (resolved or not), kept by the comments service in the same transaction. */
    commentCount: integer('comment_count').notNull().default(0),
    isTemplate: boolean('is_template').notNull().default(false),
    templateType: varchar('template_type', { length: 30, enum: templateTypes }),
    attachedImages: text('attached_images').array().notNull().default(sql`'{}'::text[]`),
    /** The how-to or build form the content was generated from, so the form can be reopened. */
    formModel: jsonb('form_model'),
    /** Weighted search text: title (A) > excerpt and tags (B) > content (C); kept by a trigger. */
    searchVector: tsvector('search_vector'),
    /** The title's words: search ranks title matches even when a word is in too many items to rank all (ranked_documents(), migration 0009). */
    titleVector: tsvector('title_vector').generatedAlwaysAs(sql`to_tsvector('english', title)`),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('documents_space_updated_idx').on(t.space, t.updatedAt),
    index('documents_search_idx').using('gin', t.searchVector),
    index('documents_title_search_idx').using('gin', t.titleVector).where(sql`${t.deletedAt} is null`),
    // Live items only: counts, category lists and "this week" come from the index, not the wide heap.
    index('documents_live_idx').on(t.space, t.category, t.createdAt).where(sql`${t.deletedAt} is null`),
    // "Created this week": a range over the newest live items.
    index('documents_live_created_idx').on(t.createdAt).where(sql`${t.deletedAt} is null`),
    // Restricted items are few: the permission filter and the per-reader counts read them from here.
    // A reader's own live restricted items (what they may read of them, beside their shares), migration 0015.
    // Overdue reviews: the dashboard's panel, ?review=overdue and the weekly digest read a range of this.
    index('documents_review_due_idx')
      .on(t.reviewDueAt)
      .where(sql`${t.deletedAt} is null and ${t.reviewDueAt} is not null`),
    index('documents_restricted_owner_idx')
      .on(t.ownerId, t.space)
      .where(sql`${t.visibility} = 'restricted' and ${t.deletedAt} is null`),
  ],
);

/**
 * Live (not deleted) items per space and category ('' = Uncategorized), kept by statement triggers on
 * documents (migration 0006), so the dashboard, the list screens' totals and category lists read a few
 * small rows instead of counting every item.
 */
export const documentCounts = pgTable(
  'document_counts',
  {
    space: varchar('space', { length: 20 }).notNull(),
    category: varchar('category', { length: 100 }).notNull().default(''),
    live: integer('live').notNull().default(0),
    /** Of those, restricted ones (migration 0015): a reader's totals are live − restricted + the restricted they may read. */
    restricted: integer('restricted').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.space, t.category] })],
);

export const documentVersions = pgTable(
  'document_versions',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    title: varchar('title', { length: 255 }).notNull(),
    content: text('content').notNull(),
    /** The whole item as it was at this version (excerpt, tags, category, form model …). */
    snapshot: jsonb('snapshot').notNull().default({}),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    changeLog: text('change_log'),
    createdAt: createdAt(),
  },
  (t) => [unique('document_versions_document_version_uq').on(t.documentId, t.version)],
);

export const sharePermissions = ['read', 'write'] as const;

export const documentShares = pgTable(
  'document_shares',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    sharedByUserId: uuid('shared_by_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A share with a user; null for a share link. */
    sharedWithUserId: uuid('shared_with_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A share link's token, as its sha256 (the token itself is shown once). */
    shareToken: varchar('share_token', { length: 64 }).unique(),
    permission: varchar('permission', { length: 10, enum: sharePermissions }).notNull().default('read'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('document_shares_document_idx').on(t.documentId),
    index('document_shares_user_idx').on(t.sharedWithUserId, t.documentId),
  ],
);
