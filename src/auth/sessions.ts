import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { DEFAULT_TIMEZONE, sessions, userPreferences, users } from '../db/schema';
import { SESSION_DAYS } from '../http/session';
import type { CurrentUser } from './schemas';
import { generateToken, hashToken } from './tokens';

export type { CurrentUser } from './schemas';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sliding expiry is pushed forward at most once an hour, not on every request. */
const SLIDE_AFTER_MS = 60 * 60 * 1000;

/** Starts a session for an active user; returns the cookie token (only its hash is stored). */
export async function createSession(db: Db, userId: string, meta: { userAgent?: string; ip?: string } = {}) {
  const token = generateToken();
  const expire = new Date(Date.now() + SESSION_DAYS * DAY_MS);
  await db.insert(sessions).values({ sid: hashToken(token), userId, sess: meta, expire });
  return { token, sid: hashToken(token), expire };
}

/** The session lookup runs on every request, so its SQL is built once per database, not per request. */
function buildSessionQuery(db: Db) {
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      profileImageUrl: users.profileImageUrl,
      accountStatus: users.accountStatus,
      expire: sessions.expire,
      theme: userPreferences.theme,
      timezone: userPreferences.timezone,
      compactView: userPreferences.compactView,
      autoSave: userPreferences.autoSave,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(and(eq(sessions.sid, sql.placeholder('sid')), gt(sessions.expire, sql`now()`)))
    .limit(1)
    .prepare('find_session_user');
}
const sessionQueries = new WeakMap<Db, ReturnType<typeof buildSessionQuery>>();

/** The active user behind a session token, sliding its expiry; null when unknown, expired or not active. */
export async function findSessionUser(db: Db, token: string): Promise<{ user: CurrentUser; sid: string } | null> {
  const sid = hashToken(token);
  const now = new Date();
  let query = sessionQueries.get(db);
  if (!query) {
    query = buildSessionQuery(db);
    sessionQueries.set(db, query);
  }
  const [row] = await query.execute({ sid });
  if (row?.accountStatus !== 'active') return null;
  const fresh = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
  if (fresh.getTime() - row.expire.getTime() > SLIDE_AFTER_MS) {
    await db.update(sessions).set({ expire: fresh }).where(eq(sessions.sid, sid));
  }
  const { accountStatus: _status, expire: _expire, theme, timezone, compactView, autoSave, ...user } = row;
  // No preferences row yet means the defaults (spec: theme system, auto-save on, compact view off).
  const prefs = {
    theme: theme ?? 'system',
    timezone: timezone ?? DEFAULT_TIMEZONE,
    compactView: compactView ?? false,
    autoSave: autoSave ?? true,
  };
  return { user: { ...user, ...prefs }, sid };
}

/** Ends one session. */
export async function revokeSession(db: Db, sid: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, sid));
}

/** Ends every session of a user, optionally keeping one (the current). */
export async function revokeUserSessions(db: Db, userId: string, keepSid?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(keepSid ? and(eq(sessions.userId, userId), ne(sessions.sid, keepSid)) : eq(sessions.userId, userId));
}

/** Deletes expired sessions; returns how many. */
export async function deleteExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const removed = await db.delete(sessions).where(lt(sessions.expire, now)).returning({ sid: sessions.sid });
  return removed.length;
}
