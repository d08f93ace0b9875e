import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common';
import { documents } from './documents';
import { users } from './users';
import { type CheckKind, type CheckStatus, tokenKinds, tokenScopes } from './values';

export const serverStatuses = ['online', 'warning', 'offline', 'maintenance', 'unknown'] as const;
export type ServerStatus = (typeof serverStatuses)[number];
export const environments = ['production', 'staging', 'development'] as const;
export type Environment = (typeof environments)[number];

export const servers = pgTable(
  'servers',
  {
    id: id(),
    name: varchar('name', { length: 100 }).notNull().unique(),
    hostname: varchar('hostname', { length: 255 }),
    ipAddress: varchar('ip_address', { length: 45 }),
    domain: varchar('domain', { length: 100 }),
    network: varchar('network', { length: 100 }),
    environment: varchar('environment', { length: 20, enum: environments }).notNull().default('development'),
    operatingSystem: varchar('operating_system', { length: 100 }),
    serverType: varchar('server_type', { length: 50 }),
    hardwareModel: varchar('hardware_model', { length: 100 }),
    serverLocation: varchar('server_location', { length: 100 }),
    primaryFunction: varchar('primary_function', { length: 200 }),
    secondaryFunction: varchar('secondary_function', { length: 200 }),
    tertiaryFunction: varchar('tertiary_function', { length: 200 }),
    teamOwner: varchar('team_owner', { length: 100 }),
    /** Free labels (lower case) that alert rules and searches select servers by (issue 24). */
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    keyContacts: text('key_contacts'),
    description: text('description'),
    notes: text('notes'),
    status: varchar('status', { length: 20, enum: serverStatuses }).notNull().default('unknown'),
    cpuUsage: doublePrecision('cpu_usage').notNull().default(0),
    memoryUsage: doublePrecision('memory_usage').notNull().default(0),
    diskUsage: doublePrecision('disk_usage').notNull().default(0),
    uptime: integer('uptime').notNull().default(0),
    /** When an agent last pushed metrics (stale-metrics reports). */
    metricsUpdatedAt: timestamp('metrics_updated_at', { withTimezone: true }),
    lastHealthCheck: timestamp('last_health_check', { withTimezone: true }),
    /** When the status last changed (offline-for-an-hour reports). */
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    monitorPort: integer('monitor_port').notNull().default(22),
    /** Rounds in a row (scheduled or by hand) in which a check failed; offline at HEALTH_CHECK_FAILURES. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** Set while the status changes more than HEALTH_CHECK_FLAP_LIMIT times an hour (announced once). */
    flappingSince: timestamp('flapping_since', { withTimezone: true }),
    /** The maintenance window the last check found the server in: shown as "maintenance", nobody alerted. */
    maintenanceWindowId: uuid('maintenance_window_id').references(() => maintenanceWindows.id, {
      onDelete: 'set null',
    }),
    managedBy: varchar('managed_by', { length: 100 }),
    /** What global search matches (lower case, name first): kept by PostgreSQL, trigram-indexed. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(name::text || E'\\n' || coalesce(ip_address, '') || E'\\n' || coalesce(primary_function, ''))`,
      ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('servers_environment_idx').on(t.environment),
    index('servers_status_idx').on(t.status),
    index('servers_search_text_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    // The dashboard's overview order: problems first, then by name (overviewJson in dashboard/service.ts).
    index('servers_overview_idx').on(
      sql`(case ${t.status} when 'offline' then 0 when 'warning' then 1 else 2 end)`,
      t.name,
    ),
    // "Added this month": a range over the newest servers.
    index('servers_created_idx').on(t.createdAt),
  ],
);

/**
 * Servers per environment and status, kept by statement triggers on servers (migration 0006), so the
 * dashboard reads a dozen counters instead of looking at every server.
 */
export const serverCounts = pgTable(
  'server_counts',
  {
    environment: varchar('environment', { length: 20 }).notNull(),
    status: varchar('status', { length: 20 }).notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.environment, t.status] })],
);

export const serverDocuments = pgTable(
  'server_documents',
  {
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    documentType: varchar('document_type', { length: 50 }).notNull().default('runbook'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.documentId] }), index('server_documents_document_idx').on(t.documentId)],
);

/**
 * A planned window (one-off, or weekly at the same weekday and time) during which checks run but nobody is
 * alerted and servers show "maintenance". No serverIds and no environment: every server.
 */
export const maintenanceWindows = pgTable('maintenance_windows', {
  id: id(),
  name: varchar('name', { length: 100 }).notNull(),
  serverIds: uuid('server_ids').array(),
  environment: varchar('environment', { length: 20, enum: environments }),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  weekly: boolean('weekly').notNull().default(false),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** A server's explicit checks, in order; a server without any has one implicit `tcp` check on monitorPort. */
export const serverChecks = pgTable(
  'server_checks',
  {
    id: id(),
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    kind: varchar('kind', { length: 10 }).$type<CheckKind>().notNull(),
    /** Host name or IP address. */
    target: varchar('target', { length: 255 }).notNull(),
    port: integer('port'),
    /** http/https: the path and query ("/healthz"). */
    path: varchar('path', { length: 500 }),
    /** http/https: the status expected (absent: any 2xx or 3xx after redirects). */
    expectStatus: integer('expect_status'),
    /** http/https: text the body must contain. */
    expectText: varchar('expect_text', { length: 200 }),
    /** tls: warning when the certificate expires in fewer days (absent: 21). */
    warnDays: integer('warn_days'),
    /** dns: the address the name must resolve to. */
    expectAddress: varchar('expect_address', { length: 45 }),
    createdAt: createdAt(),
  },
  (t) => [index('server_checks_server_idx').on(t.serverId, t.position)],
);

/** One check's result inside a health_checks row (checkId null: the implicit tcp check). */
export interface CheckResultEntry {
  checkId: string | null;
  kind: CheckKind;
  status: CheckStatus;
  latencyMs: number | null;
  /** Plain reason for everyone ("connection refused", "certificate expires in 5 days"). */
  error: string | null;
  /** Raw socket/TLS error, shown to admins only. */
  detail?: string | null;
}

export const healthChecks = pgTable(
  'health_checks',
  {
    id: id(),
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
    status: varchar('status', { length: 20, enum: serverStatuses }).notNull(),
    previousStatus: varchar('previous_status', { length: 20, enum: serverStatuses }),
    latencyMs: integer('latency_ms'),
    error: text('error'),
    /** A change to announce (went offline, or came back) not announced yet: set with the status, cleared when announced. */
    unannounced: boolean('unannounced').notNull().default(false),
    /** Each check's result in this round (null on rows from before check kinds). */
    results: jsonb('results').$type<CheckResultEntry[]>(),
  },
  (t) => [
    index('health_checks_server_time_idx').on(t.serverId, t.checkedAt),
    index('health_checks_unannounced_idx').on(t.checkedAt).where(sql`${t.unannounced}`),
  ],
);

/**
 * Each server's newest health rounds: a ring of RECENT_ROUNDS slots per server (slot = seq mod RECENT_ROUNDS),
 * written by a trigger on every insert into health_checks (drizzle/0023_recent_health_rounds.sql) and overwritten in
 * place. The detail page reads a server's rounds from here: a few neighbouring pages, where health_checks holds them
 * on as many pages as rounds, scattered over gigabytes. `id` is the health_checks row's.
 */
export const healthRecent = pgTable(
  'health_recent',
  {
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    slot: smallint('slot').notNull(),
    /** The server's round number: the newest round has the highest. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    id: uuid('id').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    status: varchar('status', { length: 20, enum: serverStatuses }).notNull(),
    previousStatus: varchar('previous_status', { length: 20, enum: serverStatuses }),
    latencyMs: integer('latency_ms'),
    error: text('error'),
    results: jsonb('results').$type<CheckResultEntry[]>(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.slot] })],
);

/** Bearer tokens for metric-pushing agents; only the sha256 is stored. */
export const apiTokens = pgTable('api_tokens', {
  id: id(),
  name: varchar('name', { length: 100 }).notNull(),
  /** The servers the token may push metrics for (none: a token from before scoping, refused for every server). */
  serverIds: uuid('server_ids').array().notNull().default(sql`'{}'::uuid[]`),
  tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
  /** metrics: an agent's, scoped to serverIds; personal: acts as createdBy with its scope. */
  kind: varchar('kind', { length: 20, enum: tokenKinds }).notNull().default('metrics'),
  /** Personal tokens only: read, or read-write. */
  scope: varchar('scope', { length: 20, enum: tokenScopes }),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  createdAt: createdAt(),
});
