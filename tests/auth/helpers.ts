import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { loginFailures, mailOutbox, users } from '../../src/db/schema';
import { jsonRequest, type TestContext } from '../helpers/app';

export const PASSWORD = 'correct horse battery';

/** Registers through the real API; returns the response. */
export function register(t: TestContext, email: string, extra: Record<string, string> = {}) {
  return t.app.request(
    '/api/auth/register',
    jsonRequest('POST', { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD, confirmPassword: PASSWORD, ...extra }),
  );
}

/** The newest outbox message to an address. */
export async function lastMailTo(db: Db, to: string) {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.createdAt)).limit(1);
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
  return t.app.request('/api/auth/login', jsonRequest('POST', { email, password }), { incoming: { socket: { remoteAddress: ip } } });
}

/** The session cookie pair ("name=value") from a response. */
export function sessionCookie(res: Response): string {
  const header = res.headers.get('set-cookie') ?? '';
  const m = header.match(/((?:__Host-)?ops_session=[^;]+)/);
  if (!m) throw new Error(`no session cookie in: ${header}`);
  return m[1];
}

export const userByEmail = async (db: Db, email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];

export const clearThrottle = (db: Db) => db.delete(loginFailures).where(sql`true`);

/** Makes a user active (as an admin decision would). */
export const activate = (db: Db, email: string) => db.update(users).set({ accountStatus: 'active', isEmailVerified: true }).where(eq(users.email, email));
