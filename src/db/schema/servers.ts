import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common';
import { documents } from './documents';
import { users } from './users';
import { tokenKinds, tokenScopes } from './values';

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
  },
  (t) => [
    index('health_checks_server_time_idx').on(t.serverId, t.checkedAt),
    index('health_checks_unannounced_idx').on(t.checkedAt).where(sql`${t.unannounced}`),
  ],
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
