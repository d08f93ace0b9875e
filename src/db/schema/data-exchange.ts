import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id } from './common';
import { documents } from './documents';
import { users } from './users';
import { type ImportJobStatus, type WebhookEvent, type WebhookFormat, webhookDeliveryStatuses } from './values';

/* Data in and out (issue 25): import jobs, outgoing webhooks and their delivery queue, runbooks kept offline. */

/** One file's line in an import's preview or report. */
export interface ImportReportEntry {
  path: string;
  title: string;
  action: 'create' | 'skip' | 'error';
  reason?: string;
  /** The item made (create, once done). */
  itemId?: string;
}

/**
 * An import of .md files or a .zip: the upload is kept here until the job has run (any web process or worker may
 * run it; the progress is read from here by whichever process answers GET /api/import/{id}).
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: id(),
    /** knowledge | documents */
    space: varchar('space', { length: 20 }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    status: varchar('status', { length: 10 }).$type<ImportJobStatus>().notNull().default('queued'),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    created: integer('created').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** One entry per file, as the preview listed them, filled in as the job goes. */
    report: jsonb('report').$type<ImportReportEntry[]>().notNull().default(sql`'[]'::jsonb`),
    /** The uploaded files (a zip or the .md files zipped together); cleared when the job ends. */
    upload: bytea('upload'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('import_jobs_status_idx').on(t.status)],
);

/** An admin's outgoing webhook: where events go, signed with its secret. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: id(),
  url: text('url').notNull(),
  /** HMAC-SHA256 key for X-OpsHub-Signature; never answered by the API after creation. */
  secret: text('secret').notNull(),
  /** Event names, or ['*'] for all. */
  events: text('events').array().$type<(WebhookEvent | '*')[]>().notNull(),
  format: varchar('format', { length: 10 }).$type<WebhookFormat>().notNull().default('json'),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * One event for one endpoint, queued in the transaction that made the event; its id is X-OpsHub-Delivery, kept
 * across retries and re-sends so a receiver can drop a duplicate.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: varchar('event', { length: 40 }).$type<WebhookEvent>().notNull(),
    /** The event's data (the JSON body's `data`); the body is built from it at each attempt. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    status: varchar('status', { length: 10, enum: webhookDeliveryStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** The receiver's last answer: status code (null when none came) and the start of its body, or our error. */
    lastStatus: integer('last_status'),
    lastResponse: text('last_response'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // The claim order of each endpoint's queue (the claim takes the head of each, then the earliest), and how many
    // wait per endpoint (the cap, the page): only rows still to send are in it.
    index('webhook_deliveries_queue_idx')
      .on(t.endpointId, t.nextAttemptAt, t.occurredAt)
      .where(sql`${t.status} in ('pending', 'sending')`),
    // The few rows held per endpoint: those in flight (at most 2 per endpoint are) and its count of dropped events.
    index('webhook_deliveries_held_idx').on(t.endpointId, t.status).where(sql`${t.status} in ('sending', 'dropped')`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);

/** Items a user chose to "Keep offline" (the runbooks of their team's servers are kept without a row here). */
export const offlineKeeps = pgTable(
  'offline_keeps',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.itemId] })],
);
