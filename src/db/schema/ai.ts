import { index, jsonb, pgTable, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common';
import { users } from './users';

export const aiInteractions = pgTable(
  'ai_interactions',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    query: text('query').notNull(),
    response: text('response').notNull(),
    context: jsonb('context'),
    feedback: varchar('feedback', { length: 20 }),
    createdAt: createdAt(),
  },
  (t) => [index('ai_interactions_created_idx').on(t.createdAt)],
);
