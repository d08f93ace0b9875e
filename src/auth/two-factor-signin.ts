import { recordAudit } from '../audit/service';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { AppError } from '../http/errors';
import { enforce, undo } from '../http/rate-limit';
import { recordMemberSignIn } from '../team/service';
import { publicUser, type UserRow } from './accounts';
import { THROTTLED_CODES, twoFactorRules } from './limits';
import { createSession, type SessionStage } from './sessions';
import { recordSignInFailure } from './sign-in-audit';
import { hashToken } from './tokens';
import { type CodeRequester, consumeCode, INVALID_CODE, readTwoFactorRules, recordTwoFactorEvent } from './two-factor';

/** Wrong codes that void a sign-in attempt: the user starts again with the password. */
export const MAX_WRONG_CODES = 5;
export const SIGN_IN_EXPIRED = 'Your sign-in has expired. Please sign in again with your password.';
export const SIGN_IN_LOCKED =
  'Too many wrong codes: this sign-in was cancelled. Please sign in again with your password.';

/**
 * What a sign-in still owes once the password (or the provider) checked out: the two-factor code when it is on
 * (after Google/OIDC only if the workspace asks for it there), its set-up when the workspace requires it, or nothing.
 */
export async function signInStage(
  db: Db,
  u: Pick<UserRow, 'twoFactorEnabledAt'>,
  via: 'password' | 'external',
): Promise<SessionStage> {
  const rules = await readTwoFactorRules(db);
  if (u.twoFactorEnabledAt) return via === 'external' && !rules.twoFactorForExternal ? null : 'two_factor';
  return rules.requireTwoFactor ? 'two_factor_setup' : null;
}

/** Opens the session of a checked sign-in at the stage it owes; a usable one counts as the member's "Last active". */
export async function openSignInSession(
  db: Db,
  u: Pick<UserRow, 'id' | 'email' | 'twoFactorEnabledAt'>,
  via: 'password' | 'external',
  client: { ip: string; userAgent?: string },
) {
  return db.transaction(async (tx) => {
    const stage = await signInStage(tx, u, via);
    const meta = { ip: client.ip, userAgent: client.userAgent?.slice(0, 300) };
    const session = await createSession(tx, u.id, meta, stage);
    if (stage !== 'two_factor') await recordMemberSignIn(tx, u.email);
    const details = { method: via, ip: client.ip, ...(stage ? { owes: stage } : {}) };
    await recordAudit(tx, { actorId: u.id, action: 'user.sign_in', entityType: 'user', entityId: u.id, details });
    return { ...session, stage };
  });
}

/** The sign-in behind a session token that waits for its two-factor code (unexpired, account active), or null. */
export async function findCodeStep(db: Db, token: string | undefined) {
  if (!token) return null;
  const [row] = await db
    .select({ sid: sessions.sid, userId: users.id, email: users.email })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.sid, hashToken(token)),
        eq(sessions.stage, 'two_factor'),
        gt(sessions.expire, sql`now()`),
        eq(users.accountStatus, 'active'),
      ),
    )
    .limit(1);
  return row ?? null;
}

const refusals = {
  expired: () => new AppError(401, SIGN_IN_EXPIRED, 'two_factor_expired'),
  locked: () => new AppError(401, SIGN_IN_LOCKED, 'two_factor_locked'),
  wrong: () => new AppError(401, INVALID_CODE, 'invalid_code'),
};

type Outcome = { kind: 'wrong' | 'locked' | 'expired' } | { kind: 'ok'; token: string; user: UserRow };

/** One code against the waiting sign-in, in one transaction (the waiting session locked). */
function tryCode(db: Db, sid: string, code: string, by: CodeRequester): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const [s] = await tx
      .select()
      .from(sessions)
      .where(and(eq(sessions.sid, sid), eq(sessions.stage, 'two_factor')))
      .for('update')
      .limit(1);
    const [u] = s ? await tx.select().from(users).where(eq(users.id, s.userId)).for('update').limit(1) : [];
    if (!s || !u?.twoFactorEnabledAt) {
      await tx.delete(sessions).where(eq(sessions.sid, sid));
      return { kind: 'expired' };
    }
    const used = await consumeCode(tx, u, code);
    if (!used) {
      const failed = s.failedCodes + 1;
      const attempt = { userId: u.id, email: u.email, method: 'two_factor' as const, ip: by.client.ip };
      const reason = failed >= MAX_WRONG_CODES ? 'too_many_wrong_codes' : 'invalid_code';
      await recordSignInFailure(tx, { ...attempt, reason });
      if (failed >= MAX_WRONG_CODES) {
        await tx.delete(sessions).where(eq(sessions.sid, sid));
        return { kind: 'locked' };
      }
      await tx.update(sessions).set({ failedCodes: failed }).where(eq(sessions.sid, sid));
      return { kind: 'wrong' };
    }
    await tx.delete(sessions).where(eq(sessions.sid, sid));
    const { token } = await createSession(tx, u.id, s.sess);
    if (used === 'recovery') await recordTwoFactorEvent(tx, u.id, 'recovery_code_used', by);
    const details = { method: 'two_factor', ip: by.client.ip };
    await recordAudit(tx, { actorId: u.id, action: 'user.sign_in', entityType: 'user', entityId: u.id, details });
    return { kind: 'ok', token, user: u };
  });
}

/**
 * Finishes a sign-in that waits for its two-factor code with a TOTP or recovery code: a new, usable session
 * replaces the waiting one. A wrong code is counted (rate limits and the attempt's own count); the fifth voids
 * the attempt. Every refusal is 401 with a message that says whether to retry or start again.
 */
export async function finishTwoFactorSignIn(db: Db, token: string | undefined, code: string, by: CodeRequester) {
  const step = await findCodeStep(db, token);
  if (!step) throw refusals.expired();
  const hitIds = await enforce(db, twoFactorRules(step.userId, by.client.ip), THROTTLED_CODES);
  const outcome = await tryCode(db, step.sid, code, by);
  if (outcome.kind !== 'ok') throw refusals[outcome.kind]();
  await undo(db, hitIds);
  await recordMemberSignIn(db, outcome.user.email);
  return { token: outcome.token, user: publicUser(outcome.user) };
}
