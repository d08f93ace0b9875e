import { index, pgTable, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common';
import { users } from './users';

/** A browser's Web Push subscription (PushSubscription.toJSON()); a user may have one per browser. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The push service URL this browser listens on; unique, so a browser re-subscribing updates its row. */
    endpoint: text('endpoint').notNull().unique(),
    /** The browser's P-256 public key and auth secret (base64url), for the aes128gcm payload encryption. */
    p256dh: varchar('p256dh', { length: 200 }).notNull(),
    auth: varchar('auth', { length: 100 }).notNull(),
    userAgent: varchar('user_agent', { length: 300 }),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);
