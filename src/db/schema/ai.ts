import { boolean, index, jsonb, pgTable, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common';
import { users } from './users';

/** An Ops AI conversation: its owner's questions and answers (issue 26), optionally shared by link. */
export const aiConversations = pgTable(
  'ai_conversations',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The first question, cut (src/ai/shared.ts CONVERSATION_TITLE_CHARS). */
    title: varchar('title', { length: 200 }).notNull(),
    /** Others may open it when it is shared and they may read every source its answers cited. */
    shared: boolean('shared').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('ai_conversations_user_updated_idx').on(t.userId, t.updatedAt)],
);

export const aiInteractions = pgTable(
  'ai_interactions',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The conversation it belongs to; deleting the conversation deletes its interactions. */
    conversationId: uuid('conversation_id').references(() => aiConversations.id, { onDelete: 'cascade' }),
    query: text('query').notNull(),
    response: text('response').notNull(),
    context: jsonb('context'),
    feedback: varchar('feedback', { length: 20 }),
    createdAt: createdAt(),
  },
  (t) => [
    index('ai_interactions_created_idx').on(t.createdAt),
    index('ai_interactions_conversation_idx').on(t.conversationId, t.createdAt),
  ],
);
