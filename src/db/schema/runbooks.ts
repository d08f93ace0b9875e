import { index, pgTable, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { id } from './common';
import { documents } from './documents';
import { users } from './users';

/**
 * The identity fields of a server whose change makes its linked documents "need review" (issue 23); status and
 * metrics are not among them. `deleted` marks the server's deletion.
 */
export const serverIdentityFields = [
  'name',
  'hostname',
  'ipAddress',
  'operatingSystem',
  'environment',
  'serverType',
  'domain',
  'network',
] as const;
export type ServerIdentityField = (typeof serverIdentityFields)[number];
export const reviewFlagFields = [...serverIdentityFields, 'deleted'] as const;
export type ReviewFlagField = (typeof reviewFlagFields)[number];

/**
 * A linked server changed after the document was last reviewed or edited: one row per changed field (old → new,
 * when, by whom). Deleted when someone marks the item reviewed or saves it. No foreign key to servers: a deleted
 * server's flag outlives it.
 */
export const documentReviewFlags = pgTable(
  'document_review_flags',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    serverId: uuid('server_id').notNull(),
    /** The server's name when it changed (its new name for a rename). */
    serverName: varchar('server_name', { length: 100 }).notNull(),
    /** The team that owned the server when it changed (a team's report keeps a deleted server's flags). */
    serverTeam: varchar('server_team', { length: 100 }),
    field: varchar('field', { length: 30, enum: reviewFlagFields }).notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Who changed it (null: an agent or the system, `byName` says which). */
    byId: uuid('by_id').references(() => users.id, { onDelete: 'set null' }),
    byName: varchar('by_name', { length: 200 }).notNull(),
  },
  (t) => [index('document_review_flags_document_idx').on(t.documentId, t.at)],
);
