import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { bytea } from './common';
import { documents } from './documents';

/**
 * Retrieval by meaning (issue 26): an item's text cut at its headings, each part with its vector from the
 * configured model. Vectors are float32 bytes, compared in memory (src/embeddings/vector-index.ts): this
 * PostgreSQL and PGlite have no pgvector here (README § Decisions).
 */
export const documentChunks = pgTable(
  'document_chunks',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** The heading the part starts at (null: the text before the first heading). */
    heading: text('heading'),
    /** That heading's id on the read page (#anchor). */
    anchor: text('anchor'),
    body: text('body').notNull(),
    model: varchar('model', { length: 200 }).notNull(),
    /** Float32 little-endian, unit length (so the dot product is the cosine similarity). */
    embedding: bytea('embedding').notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.position] }), index('document_chunks_model_idx').on(t.model)],
);

/** Which text and model an item's chunks were made from: a differing hash or model means it is due again. */
export const documentEmbeddings = pgTable('document_embeddings', {
  documentId: uuid('document_id')
    .primaryKey()
    .references(() => documents.id, { onDelete: 'cascade' }),
  model: varchar('model', { length: 200 }).notNull(),
  /** sha256 of the title and content embedded. */
  contentHash: varchar('content_hash', { length: 64 }).notNull(),
  chunks: integer('chunks').notNull().default(0),
  /** Why the endpoint refused this text (it is not tried again until the text or the model changes). */
  error: text('error'),
  /** The item's updated_at when it was read for embedding: a later save makes it due again. */
  itemUpdatedAt: timestamp('item_updated_at', { withTimezone: true }).notNull(),
  embeddedAt: timestamp('embedded_at', { withTimezone: true }).notNull().default(sql`now()`),
});
