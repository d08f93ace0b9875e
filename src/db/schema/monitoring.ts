import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, id } from './common';
import { environments, servers } from './servers';
import { users } from './users';
import { type AlertChannel, alertDeliveryKinds, alertDeliveryStatuses, type WebhookFormat } from './values';

/*
 * Monitoring at fleet scale (issue 24): rounds shared by every worker, bounded history with rollups, uptime,
 * SLA targets, alert rules and their delivery queue.
 */

/** One row per round (the cron slot it belongs to); a newer round stops workers claiming for an older one. */
export const healthRounds = pgTable('health_rounds', {
  slotAt: timestamp('slot_at', { withTimezone: true }).primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  /** Servers due when the round started. */
  due: integer('due').notNull().default(0),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/**
 * Where each server stands in the rounds: the last round that checked it and, while a worker probes it, the
 * claim's lease (a crashed worker's claims are taken over when the lease ends).
 */
export const healthSchedule = pgTable(
  'health_schedule',
  {
    serverId: uuid('server_id')
      .primaryKey()
      .references(() => servers.id, { onDelete: 'cascade' }),
    roundAt: timestamp('round_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    claimedBy: varchar('claimed_by', { length: 100 }),
  },
  (t) => [index('health_schedule_round_idx').on(t.roundAt)],
);

/** Hourly summary of a server's checks, kept HEALTH_ROLLUP_DAYS (raw checks only HEALTH_HISTORY_DAYS). */
export const healthRollups = pgTable(
  'health_rollups',
  {
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    checks: integer('checks').notNull(),
    failures: integer('failures').notNull(),
    /** Checks that found the server in each status (a round's checks are spaced evenly: time in status). */
    online: integer('online').notNull().default(0),
    warning: integer('warning').notNull().default(0),
    offline: integer('offline').notNull().default(0),
    maintenance: integer('maintenance').notNull().default(0),
    latencyMin: integer('latency_min'),
    latencyAvg: doublePrecision('latency_avg'),
    latencyMax: integer('latency_max'),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.hour] }), index('health_rollups_hour_idx').on(t.hour)],
);

/** The same per day: the 30- and 90-day uptime of every server reads 30–90 rows per server, not 720–2,160. */
export const healthDaily = pgTable(
  'health_daily',
  {
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    checks: integer('checks').notNull(),
    failures: integer('failures').notNull(),
    online: integer('online').notNull().default(0),
    warning: integer('warning').notNull().default(0),
    offline: integer('offline').notNull().default(0),
    maintenance: integer('maintenance').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.day] }), index('health_daily_day_idx').on(t.day)],
);

/** Each server's availability per period, refreshed by the rollup job: the server table reads one row. */
export const serverUptime = pgTable('server_uptime', {
  serverId: uuid('server_id')
    .primaryKey()
    .references(() => servers.id, { onDelete: 'cascade' }),
  pct24h: doublePrecision('pct_24h'),
  pct7d: doublePrecision('pct_7d'),
  pct30d: doublePrecision('pct_30d'),
  pct90d: doublePrecision('pct_90d'),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The availability an environment promises (percent); the report and table show who missed it. */
export const slaTargets = pgTable('sla_targets', {
  environment: varchar('environment', { length: 20, enum: environments }).primaryKey(),
  targetPct: doublePrecision('target_pct').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Who hears about which servers, through which channel, how often while they stay down. */
export const alertRules = pgTable('alert_rules', {
  id: id(),
  name: varchar('name', { length: 100 }).notNull(),
  enabled: boolean('enabled').notNull().default(true),
  /** Null: every environment. */
  environment: varchar('environment', { length: 20, enum: environments }),
  /** Null: every team. */
  teamOwner: varchar('team_owner', { length: 100 }),
  /** Only servers carrying this tag (lower case). */
  tag: varchar('tag', { length: 50 }),
  channel: varchar('channel', { length: 10 }).$type<AlertChannel>().notNull(),
  /** email and push: who receives it. */
  userIds: uuid('user_ids').array().notNull().default(sql`'{}'::uuid[]`),
  webhookUrl: text('webhook_url'),
  webhookFormat: varchar('webhook_format', { length: 10 }).$type<WebhookFormat>(),
  repeatMinutes: integer('repeat_minutes').notNull(),
  sendRecovery: boolean('send_recovery').notNull().default(true),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** A server down under a rule: open until it recovers; acknowledging it stops the repeats. */
export const alerts = pgTable(
  'alerts',
  {
    id: id(),
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** When the next repeat is due (null: no repeat pending). */
    nextRepeatAt: timestamp('next_repeat_at', { withTimezone: true }),
    repeats: integer('repeats').notNull().default(0),
  },
  (t) => [
    uniqueIndex('alerts_open_idx').on(t.serverId, t.ruleId).where(sql`${t.closedAt} is null`),
    index('alerts_repeat_idx').on(t.nextRepeatAt).where(sql`${t.closedAt} is null and ${t.acknowledgedAt} is null`),
  ],
);

/** The delivery queue: one row per message and recipient; the dedupe key makes it once, retries until sent. */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: id(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 10, enum: alertDeliveryKinds }).notNull(),
    /** "<alertId>:<kind>:<repeat>:<recipient>": the same message twice is one row. */
    dedupeKey: varchar('dedupe_key', { length: 300 }).notNull().unique(),
    channel: varchar('channel', { length: 10 }).$type<AlertChannel>().notNull(),
    /** email/push: the user; webhook: null (the rule's URL). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 10, enum: alertDeliveryStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('alert_deliveries_due_idx').on(t.status, t.nextAttemptAt)],
);
