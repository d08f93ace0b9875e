import { index, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { id } from './common';

/**
 * One counted request per row, under a key such as "login:account:ada@example.com" (src/http/rate-limit.ts).
 * A row counts until it expires; expired rows are pruned by key on the next hit and by the token-expiry job.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: id(),
    key: varchar('key', { length: 300 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('rate_limit_hits_key_idx').on(t.key, t.expiresAt),
    index('rate_limit_hits_expires_idx').on(t.expiresAt),
  ],
);
