import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { loginFailures } from '../db/schema';

/** 10 failed sign-ins per account or per client address within 15 minutes → throttled. */
export const MAX_FAILURES = 10;
export const WINDOW_SECONDS = 15 * 60;

/** The throttle keys of one attempt: the account (e-mail) and the client address. */
export const throttleKeys = (email: string, ip: string) => [`email:${email.toLowerCase()}`, `ip:${ip}`];

/**
 * Seconds until another attempt is allowed, or 0 when allowed now. State is in PostgreSQL, so every
 * web process sees the same counts: the key unlocks when its 10th newest failure leaves the window.
 */
export async function throttledFor(db: Db, keys: string[]): Promise<number> {
  let wait = 0;
  for (const key of keys) {
    const rows = await queryRows<{ wait: number | string }>(
      db,
      sql`select extract(epoch from (created_at + make_interval(secs => ${WINDOW_SECONDS}) - now()))::float8 as wait
          from login_failures
          where key = ${key} and created_at > now() - make_interval(secs => ${WINDOW_SECONDS})
          order by created_at desc offset ${MAX_FAILURES - 1} limit 1`,
    );
    if (rows[0]) wait = Math.max(wait, Number(rows[0].wait));
  }
  return wait > 0 ? Math.ceil(wait) : 0;
}

/** Counts one failed sign-in against every key, and drops the keys' rows that left the window. */
export async function recordFailure(db: Db, keys: string[]): Promise<void> {
  await db.insert(loginFailures).values(keys.map((key) => ({ key })));
  await db.execute(
    sql`delete from login_failures where key in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})
        and created_at < now() - make_interval(secs => ${WINDOW_SECONDS})`,
  );
}

/** Forgets an account's failures (after a successful sign-in or a password reset). */
export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from login_failures where key = ${key}`);
}
