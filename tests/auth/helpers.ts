import { and, desc, eq, like, sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { mailOutbox, rateLimitHits, users } from '../../src/db/schema';
import { jsonRequest, type TestContext } from '../helpers/app';

export const PASSWORD = 'correct horse battery';

/** Registers through the real API; returns the response. */
export function register(t: TestContext, email: string, extra: Record<string, string> = {}) {
  return t.app.request(
    '/api/auth/register',
    jsonRequest('POST', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      ...extra,
    }),
  );
}

/** The newest outbox message to an address (of one kind: its dedupe key's prefix, such as "verify:"). */
export async function lastMailTo(db: Db, to: string, kind?: string) {
  const where = kind ? and(eq(mailOutbox.to, to), like(mailOutbox.dedupeKey, `${kind}%`)) : eq(mailOutbox.to, to);
  const [row] = await db.select().from(mailOutbox).where(where).orderBy(desc(mailOutbox.createdAt)).limit(1);
  return row;
}

/** The token of the first link to `path` in a text body. */
export function tokenFrom(text: string, path: string): string {
  const m = text.match(new RegExp(`https?://[^\\s]+${path.replace('/', '\\/')}\\?token=([A-Za-z0-9_%-]+)`));
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return decodeURIComponent(m[1]);
}

/** Registers and verifies an account through the API; returns its verification result. */
export async function registerAndVerify(t: TestContext, email: string) {
  await register(t, email);
  const mail = await lastMailTo(t.db, email);
  const token = tokenFrom(mail.text, '/verify-email');
  const res = await t.app.request(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
  return (await res.json()) as { status: string; message: string };
}

/** Signs in through the API from a given client address; returns the response. */
export function login(t: TestContext, email: string, password: string, ip = '198.51.100.7') {
  return t.app.request('/api/auth/login', jsonRequest('POST', { email, password }), {
    incoming: { socket: { remoteAddress: ip } },
  });
}

/** The session cookie pair ("name=value") from a response. */
export function sessionCookie(res: Response): string {
  const header = res.headers.get('set-cookie') ?? '';
  const m = header.match(/((?:__Host-)?ops_session=[^;]+)/);
  if (!m) throw new Error(`no session cookie in: ${header}`);
  return m[1];
}

export const userByEmail = async (db: Db, email: string) =>
  (await db.select().from(users).where(eq(users.email, email)))[0];

/** Forgets every rate-limit count (sign-in throttles included). */
export const clearThrottle = (db: Db) => db.delete(rateLimitHits).where(sql`true`);

/** Makes a user active (as an admin decision would). */
export const activate = (db: Db, email: string) =>
  db.update(users).set({ accountStatus: 'active', isEmailVerified: true }).where(eq(users.email, email));
