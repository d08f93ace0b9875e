import { integer, pgTable, uuid, varchar } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id } from './common';
import { users } from './users';

export const objectVisibilities = ['private', 'public'] as const;

/** Uploaded images, kept in PostgreSQL so backups hold everything. */
export const objects = pgTable('objects', {
  id: id(),
  ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
  contentType: varchar('content_type', { length: 50 }).notNull(),
  size: integer('size').notNull(),
  data: bytea('data').notNull(),
  visibility: varchar('visibility', { length: 10, enum: objectVisibilities }).notNull().default('private'),
  createdAt: createdAt(),
});
