import { inArray, lte, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { rateLimitHits } from '../db/schema';
import { tooManyRequests } from './errors';

/**
 * Rate limits kept in PostgreSQL (rate_limit_hits), so every process sees the same counts.
 * A rule allows `limit` hits per `windowSeconds` under one key; a key is always used with the same rule.
 */
export interface Rule {
  key: string;
  limit: number;
  windowSeconds: number;
}

export interface Verdict {
  allowed: boolean;
  /** Seconds until the next hit would be allowed (0 when allowed). */
  retryAfter: number;
  /** The rows counted for this hit (empty when refused): `undo` takes them back. */
  hitIds: string[];
}

/** Advisory-lock namespace of the limiter (two-int form: apart from every single-bigint lock). */
const LOCK_NAMESPACE = 7_302;

/**
 * Counts one hit against every rule, atomically: when all are under their limit the hit is counted for
 * all of them; when one is at its limit nothing is counted. Each key is locked for the transaction, so
 * concurrent requests cannot all pass one check before any of them is counted.
 */
export async function hitAll(db: Db, rules: Rule[]): Promise<Verdict> {
  if (rules.length === 0) return { allowed: true, retryAfter: 0, hitIds: [] };
  return db.transaction(async (tx) => {
    const keys = [...new Set(rules.map((r) => r.key))];
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, h)
      from (select distinct hashtext(k) as h from (values ${sql.join(
        keys.map((k) => sql`(${k}::text)`),
        sql`, `,
      )}) as v(k) order by 1) as s`);
    let retryAfter = 0;
    for (const rule of rules) retryAfter = Math.max(retryAfter, await waitFor(tx, rule));
    if (retryAfter > 0) return { allowed: false, retryAfter, hitIds: [] };
    const rows = await tx
      .insert(rateLimitHits)
      .values(rules.map((r) => ({ key: r.key, expiresAt: sql`now() + make_interval(secs => ${r.windowSeconds})` })))
      .returning({ id: rateLimitHits.id });
    await tx
      .delete(rateLimitHits)
      .where(sql`${inArray(rateLimitHits.key, keys)} and ${rateLimitHits.expiresAt} <= now()`);
    return { allowed: true, retryAfter: 0, hitIds: rows.map((r) => r.id) };
  });
}

/** One key: `hit(db, 'mcp:token:…', { limit: 60, windowSeconds: 60 })`. */
export function hit(db: Db, key: string, rule: Omit<Rule, 'key'>): Promise<Verdict> {
  return hitAll(db, [{ key, ...rule }]);
}

/** Counts the hit, or throws 429 with Retry-After when a rule is at its limit. Returns the counted rows. */
export async function enforce(db: Db, rules: Rule[], message?: string): Promise<string[]> {
  const verdict = await hitAll(db, rules);
  if (!verdict.allowed) throw tooManyRequests(verdict.retryAfter, message);
  return verdict.hitIds;
}

/** Seconds until the rule's key is under its limit again: when its limit-th newest hit expires (0 when under it now). */
async function waitFor(tx: Db, rule: Rule): Promise<number> {
  const [row] = await queryRows<{ wait: number | string }>(
    tx,
    sql`select extract(epoch from (expires_at - now()))::float8 as wait from rate_limit_hits
        where key = ${rule.key} and expires_at > now()
        order by expires_at desc offset ${rule.limit - 1} limit 1`,
  );
  return row ? Math.max(1, Math.ceil(Number(row.wait))) : 0;
}

/** Takes back counted hits (the attempt turned out to be legitimate). */
export async function undo(db: Db, hitIds: string[]): Promise<void> {
  if (hitIds.length) await db.delete(rateLimitHits).where(inArray(rateLimitHits.id, hitIds));
}

/** Forgets every hit under these keys. */
export async function forget(db: Db, keys: string[]): Promise<void> {
  if (keys.length) await db.delete(rateLimitHits).where(inArray(rateLimitHits.key, keys));
}

/** Deletes expired hits of every key (the token-expiry job); returns how many. */
export async function pruneExpiredHits(db: Db): Promise<number> {
  const removed = await db
    .delete(rateLimitHits)
    .where(lte(rateLimitHits.expiresAt, sql`now()`))
    .returning({ id: rateLimitHits.id });
  return removed.length;
}
