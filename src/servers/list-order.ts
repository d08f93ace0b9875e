import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { compareServerNames } from './shared';

/**
 * Every server id in natural name order (web-2 before web-10: no SQL index gives that order), kept per database.
 * Only names move it, so its version is what adding, deleting and renaming change: the server count (the
 * server_counts counters), the newest created_at (index) and the newest server.update audit event (index). Health
 * checks and metrics never touch these, so rounds never rebuild it. A rebuild reads two columns.
 */
export interface NameOrder {
  ids: string[];
  /** id → position in `ids`. */
  rank: Map<string, number>;
}

/** A commit that lands out of its transaction's time order is still seen within this long. */
const MAX_AGE_MS = 60_000;

const cache = new WeakMap<Db, { version: string; at: number; order: Promise<NameOrder> }>();

async function namesVersion(db: Db): Promise<string> {
  const [row] = await queryRows<{ v: string }>(
    db,
    sql`select concat_ws('|',
          (select coalesce(sum(n), 0) from server_counts),
          (select max(created_at) from servers),
          (select max(created_at) from audit_log where action = 'server.update')) as v`,
  );
  return row.v;
}

async function build(db: Db): Promise<NameOrder> {
  const rows = await queryRows<{ id: string; name: string }>(db, sql`select id, name from servers`);
  rows.sort((a, b) => compareServerNames(a.name, b.name));
  const ids = rows.map((r) => r.id);
  return { ids, rank: new Map(ids.map((id, i) => [id, i])) };
}

/** The natural name order of every server, rebuilt only when a server was added, deleted or renamed. */
export async function nameOrder(db: Db): Promise<NameOrder> {
  const version = await namesVersion(db);
  const hit = cache.get(db);
  if (hit && hit.version === version && Date.now() - hit.at < MAX_AGE_MS) return hit.order;
  const order = build(db);
  cache.set(db, { version, at: Date.now(), order });
  order.catch(() => cache.delete(db));
  return order;
}
