import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import type { Server } from './schemas';
import { listServers } from './service';

/**
 * GET /api/servers without filters or page parameters answers the whole inventory (2,000 servers ≈ 1.3 MB of JSON),
 * for API clients only: the table reads pages (list-page.ts), so a round's writes never make a page rebuild this.
 * The serialised and gzipped body is kept per database and rebuilt only when the table's version
 * changes: row count plus the newest updated_at / last_health_check / metrics_updated_at /
 * status_changed_at (every write path of service.ts and health.ts moves one of them). One small
 * aggregate query per request instead of reading, mapping, serialising and compressing every row.
 */
export interface ServerListBody {
  /** Shared between requests: treat as read-only. */
  servers: Server[];
  etag: string;
  json: string;
  gzip: Buffer;
}

const cache = new WeakMap<Db, { version: string; body: Promise<ServerListBody> }>();

async function tableVersion(db: Db): Promise<string> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`select count(*)::text as n, max(updated_at)::text as u, max(last_health_check)::text as h,
               max(metrics_updated_at)::text as m, max(status_changed_at)::text as s from servers`,
  );
  return [row.n, row.u, row.h, row.m, row.s].join('|');
}

async function build(db: Db, version: string): Promise<ServerListBody> {
  const servers = await listServers(db);
  const json = JSON.stringify(servers);
  let hash = 0;
  for (let i = 0; i < version.length; i++) hash = (hash * 31 + version.charCodeAt(i)) | 0;
  return {
    servers,
    etag: `W/"servers-${(hash >>> 0).toString(36)}-${json.length.toString(36)}"`,
    json,
    gzip: gzipSync(json, { level: 6 }),
  };
}

/** The unfiltered server list as JSON text and gzip, cached until the servers table changes. */
export async function cachedServerList(db: Db): Promise<ServerListBody> {
  const version = await tableVersion(db);
  const hit = cache.get(db);
  if (hit?.version === version) return hit.body;
  const body = build(db, version);
  cache.set(db, { version, body });
  body.catch(() => cache.delete(db));
  return body;
}
