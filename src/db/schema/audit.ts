import { desc } from 'drizzle-orm';
import { index, jsonb, pgTable, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common';
import { users } from './users';

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: varchar('action', { length: 100 }).notNull(),
    entityType: varchar('entity_type', { length: 50 }).notNull(),
    entityId: varchar('entity_id', { length: 100 }),
    details: jsonb('details').notNull().default({}),
    createdAt: createdAt(),
  },
  // Keyset pages newest first (created_at, id), alone or after an equality filter on actor, action or entity.
  (t) => [
    index('audit_log_created_id_idx').on(desc(t.createdAt), desc(t.id)),
    index('audit_log_actor_idx').on(t.actorId, desc(t.createdAt), desc(t.id)),
    index('audit_log_action_idx').on(t.action, desc(t.createdAt), desc(t.id)),
    index('audit_log_entity_idx').on(t.entityType, t.entityId, desc(t.createdAt), desc(t.id)),
  ],
);
