import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { appSettings, DEFAULT_TIMEZONE, sessions, type sessionStages, userPreferences, users } from '../db/schema';
import { SESSION_DAYS } from '../http/session';
import type { CurrentUser } from './schemas';
import { generateToken, hashToken } from './tokens';

export type { CurrentUser } from './schemas';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sliding expiry is pushed forward at most once an hour, not on every request. */
const SLIDE_AFTER_MS = 60 * 60 * 1000;

/** What a session still owes: nothing (null), the two-factor code, or the two-factor set-up. */
export type SessionStage = (typeof sessionStages)[number] | null;

/** A sign-in waiting for its two-factor code lasts this long. */
const CODE_STEP_MS = 10 * 60 * 1000;

/**
 * Starts a session for an active user; returns the cookie token (only its hash is stored). A session waiting for
 * its two-factor code is short-lived and not a usable session (see findSessionUser).
 */
export async function createSession(
  db: Db,
  userId: string,
  meta: { userAgent?: string; ip?: string } = {},
  stage: SessionStage = null,
) {
  const token = generateToken();
  const expire = new Date(Date.now() + (stage === 'two_factor' ? CODE_STEP_MS : SESSION_DAYS * DAY_MS));
  await db.insert(sessions).values({ sid: hashToken(token), userId, sess: meta, expire, stage });
  return { token, sid: hashToken(token), expire };
}

/** The columns a CurrentUser is made of (the account and its preferences row, left-joined), for every sign-in lookup. */
export const currentUserColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  profileImageUrl: users.profileImageUrl,
  theme: userPreferences.theme,
  timezone: userPreferences.timezone,
  compactView: userPreferences.compactView,
  autoSave: userPreferences.autoSave,
};

/**
 * The workspace requires two-factor sign-in and the user has not turned it on (however long ago they signed in):
 * set-up only (auth/two-factor-gate.ts). Needs app_settings left-joined on id 1.
 */
export const twoFactorSetupRequired = sql<boolean>`(coalesce(${appSettings.requireTwoFactor}, false) and ${users.twoFactorEnabledAt} is null)`;

/** No preferences row yet means the defaults (spec: theme system, auto-save on, compact view off). */
export function preferencesOrDefaults(row: {
  theme: CurrentUser['theme'] | null;
  timezone: string | null;
  compactView: boolean | null;
  autoSave: boolean | null;
}) {
  return {
    theme: row.theme ?? 'system',
    timezone: row.timezone ?? DEFAULT_TIMEZONE,
    compactView: row.compactView ?? false,
    autoSave: row.autoSave ?? true,
  };
}

/** The session lookup runs on every request, so its SQL is built once per database, not per request. */
function buildSessionQuery(db: Db) {
  return db
    .select({
      ...currentUserColumns,
      accountStatus: users.accountStatus,
      expire: sessions.expire,
      stage: sessions.stage,
      twoFactorSetupRequired,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .leftJoin(appSettings, eq(appSettings.id, 1))
    .where(and(eq(sessions.sid, sql.placeholder('sid')), gt(sessions.expire, sql`now()`)))
    .limit(1)
    .prepare('find_session_user');
}
const sessionQueries = new WeakMap<Db, ReturnType<typeof buildSessionQuery>>();

/**
 * The active user behind a session token, sliding its expiry; null when unknown, expired or not active. A sign-in
 * still waiting for its two-factor code is found with user null: it is not a usable session.
 */
export async function findSessionUser(
  db: Db,
  token: string,
): Promise<{ user: CurrentUser | null; sid: string; stage: SessionStage } | null> {
  const sid = hashToken(token);
  const now = new Date();
  let query = sessionQueries.get(db);
  if (!query) {
    query = buildSessionQuery(db);
    sessionQueries.set(db, query);
  }
  const [row] = await query.execute({ sid });
  if (row?.accountStatus !== 'active') return null;
  if (row.stage === 'two_factor') return { user: null, sid, stage: row.stage };
  const fresh = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
  if (fresh.getTime() - row.expire.getTime() > SLIDE_AFTER_MS) {
    await db.update(sessions).set({ expire: fresh }).where(eq(sessions.sid, sid));
  }
  const { accountStatus: _status, expire: _expire, stage, theme, timezone, compactView, autoSave, ...rest } = row;
  const prefs = preferencesOrDefaults({ theme, timezone, compactView, autoSave });
  const user = { ...rest, ...prefs, twoFactorSetupRequired: rest.twoFactorSetupRequired === true };
  return { user, sid, stage };
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
