import { index, integer, pgTable, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common';

export const outboxStatuses = ['pending', 'sending', 'sent', 'failed'] as const;

/** E-mail outbox: written in the same transaction as its cause, sent and retried by the mail job. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    /** Same key twice → one message (e.g. "verify:<userId>:<tokenHash>"). */
    dedupeKey: varchar('dedupe_key', { length: 200 }).notNull().unique(),
    to: varchar('to', { length: 255 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: varchar('status', { length: 10, enum: outboxStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Who holds the claim: set when a runner claims the message; only that runner may mark it sent or failed. */
    claimToken: uuid('claim_token'),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);
