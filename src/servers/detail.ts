import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { type healthChecks, servers } from '../db/schema';
import type { CheckKind } from '../db/schema/values';
import { specsOf } from './checks';
import type { Uptime } from './history/periods';
import { serverUptime } from './history/uptime';
import type { CheckSpec } from './probes/types';
import type { Server } from './schemas';
import { linkedDocumentsJson, toLinkedDocument, toServer, type LinkedDocument } from './service';

/*
 * What the server detail page reads, in one statement: the server, its checks, its newest health rows (from the
 * health_recent ring, not health_checks: a few pages instead of one page a round), the linked documents the reader
 * may read, its uptime
 * (server_uptime, as the table's Availability column shows it; refreshed by the rollup job) and its environment's SLA
 * target. One round trip instead of six: on a busy 2-core machine each statement costs a write and a wake-up on both
 * sides, and the uptime from server_uptime is one row instead of up to 114 rollup rows spread over as many pages.
 */

/**
 * The newest health rounds the page shows (the history table; the checks card uses the first 20): those the
 * health_recent ring keeps (its size is in drizzle/0023_recent_health_rounds.sql).
 */
export const DETAIL_ROUNDS = 50;

export type DetailHealthRow = Omit<typeof healthChecks.$inferSelect, 'unannounced'>;

export interface ServerDetailData {
  server: Server;
  specs: CheckSpec[];
  rows: DetailHealthRow[];
  uptime: Uptime;
  target: number | null;
  /** Linked documents `reader` may read (deleted ones left out), by title. */
  links: LinkedDocument[];
}

interface CheckJson {
  id: string;
  kind: CheckKind;
  target: string;
  port: number | null;
  path: string | null;
  expectStatus: number | null;
  expectText: string | null;
  warnDays: number | null;
  expectAddress: string | null;
}

type RowJson = Omit<DetailHealthRow, 'checkedAt'> & { checkedAt: string };
type UptimeJson = { d1: number | null; d7: number | null; d30: number | null; d90: number | null };

/** The page's data as `reader` sees it, or null when there is no such server. */
// The subqueries name the outer row as "servers"."id": drizzle writes a bare "id" for a column of the only table.
export async function serverDetailOf(db: Db, id: string, reader: Actor): Promise<ServerDetailData | null> {
  const [found] = await db
    .select({
      server: servers,
      checks: sql<CheckJson[]>`(
        select coalesce(json_agg(json_build_object('id', c.id, 'kind', c.kind, 'target', c.target, 'port', c.port,
                 'path', c.path, 'expectStatus', c.expect_status, 'expectText', c.expect_text,
                 'warnDays', c.warn_days, 'expectAddress', c.expect_address) order by c.position, c.created_at), '[]')
        from server_checks c where c.server_id = "servers"."id")`,
      rows: sql<RowJson[]>`(
        select coalesce(json_agg(json_build_object('id', h.id, 'serverId', h.server_id, 'checkedAt', h.checked_at,
                 'status', h.status, 'previousStatus', h.previous_status, 'latencyMs', h.latency_ms,
                 'error', h.error, 'results', h.results) order by h.checked_at desc, h.seq desc), '[]')
        from health_recent h where h.server_id = "servers"."id")`,
      links: linkedDocumentsJson(sql`"servers"."id"`, reader),
      uptime: sql<UptimeJson | null>`(
        select json_build_object('d1', u.pct_24h, 'd7', u.pct_7d, 'd30', u.pct_30d, 'd90', u.pct_90d)
        from server_uptime u where u.server_id = "servers"."id")`,
      target: sql<
        number | null
      >`(select t.target_pct from sla_targets t where t.environment = "servers"."environment")`,
    })
    .from(servers)
    .where(eq(servers.id, id));
  if (!found) return null;
  const server = toServer(found.server);
  const u = found.uptime;
  return {
    server,
    specs: specsOf(server, found.checks),
    rows: found.rows.map((r) => ({ ...r, checkedAt: new Date(r.checkedAt) })),
    // A server the rollup job has not reached yet (added since its last run) is read from the rollups.
    uptime: u
      ? { '24h': u.d1, '7d': u.d7, '30d': u.d30, '90d': u.d90 }
      : ((await serverUptime(db, id)) ?? { '24h': null, '7d': null, '30d': null, '90d': null }),
    target: found.target === null ? null : Number(found.target),
    links: found.links.map(toLinkedDocument),
  };
}
