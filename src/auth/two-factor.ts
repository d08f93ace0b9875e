import { and, count, eq, isNull, lt, or } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { appSettings, sessions, twoFactorRecoveryCodes, users } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { enforce, undo } from '../http/rate-limit';
import type { SecurityEvent } from '../mail/service';
import { queueSecurityAlert, type ClientInfo } from '../notifications/service';
import { THROTTLED_CODES, twoFactorRules } from './limits';
import { hashRecoveryCode, isTotpShaped, matchTotpStep, newRecoveryCodes, newTotpSecret, otpauthUrl } from './totp';

/** Two-factor sign-in of one account: set-up, turning it on and off, and checking a code (TOTP or recovery). */

export const INVALID_CODE = 'Invalid code. Please try again.';

/** Who asked, for rate limits and security alerts. */
export interface CodeRequester {
  appUrl: string;
  client: ClientInfo & { ip: string };
}

/**
 * The workspace's two-factor rules, read straight from app_settings (row 1; defaults when missing). The admin
 * feature's getSecuritySettings reads the same row; auth cannot import it (the admin feature imports auth).
 */
export async function readTwoFactorRules(
  db: Db,
): Promise<{ requireTwoFactor: boolean; twoFactorForExternal: boolean }> {
  const [row] = await db
    .select({ requireTwoFactor: appSettings.requireTwoFactor, twoFactorForExternal: appSettings.twoFactorForExternal })
    .from(appSettings)
    .where(eq(appSettings.id, 1))
    .limit(1);
  return row ?? { requireTwoFactor: false, twoFactorForExternal: true };
}

export interface TwoFactorState {
  enabledAt: Date | null;
  /** Set-up started and not confirmed yet: the secret to scan or type. */
  pending: { secret: string; otpauthUrl: string } | null;
  recoveryCodesLeft: number;
  /** The workspace requires two-factor sign-in (it cannot be turned off). */
  required: boolean;
}

/** Where the user's two-factor sign-in stands (Settings › Security). */
export async function twoFactorState(db: Db, userId: string): Promise<TwoFactorState> {
  const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw notFound('Account not found.');
  const [{ n }] = await db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  const pending = !u.twoFactorEnabledAt && u.twoFactorSecret;
  return {
    enabledAt: u.twoFactorEnabledAt,
    pending: pending ? { secret: pending, otpauthUrl: otpauthUrl(pending, u.email) } : null,
    recoveryCodesLeft: u.twoFactorEnabledAt ? Number(n) : 0,
    required: (await readTwoFactorRules(db)).requireTwoFactor,
  };
}

/** Starts (or restarts) the set-up: a new secret, stored but not in use until a code confirms it. */
export async function startTwoFactorSetup(db: Db, userId: string): Promise<{ secret: string; otpauthUrl: string }> {
  const secret = newTotpSecret();
  const [u] = await db
    .update(users)
    .set({ twoFactorSecret: secret, twoFactorLastStep: null, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.twoFactorEnabledAt)))
    .returning({ email: users.email });
  if (!u) throw conflict('Two-factor sign-in is already on.', 'two_factor_enabled');
  return { secret, otpauthUrl: otpauthUrl(secret, u.email) };
}

type UserCodes = Pick<typeof users.$inferSelect, 'id' | 'twoFactorSecret' | 'twoFactorLastStep'>;

/**
 * Uses a code of the user's if it is good: a TOTP code of a step later than the last one used (the step is stored,
 * so the code and older ones cannot be used again), or an unused recovery code (marked used). Concurrent uses of one
 * code cannot both pass: each is a conditional update. Returns which kind it was, or null.
 */
export async function consumeCode(db: Db, u: UserCodes, code: string): Promise<'totp' | 'recovery' | null> {
  if (isTotpShaped(code)) {
    const step = u.twoFactorSecret ? matchTotpStep(u.twoFactorSecret, code, u.twoFactorLastStep) : null;
    if (step === null) return null;
    const used = await db
      .update(users)
      .set({ twoFactorLastStep: step })
      .where(and(eq(users.id, u.id), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
      .returning({ id: users.id });
    return used.length ? 'totp' : null;
  }
  const used = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, u.id),
        eq(twoFactorRecoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return used.length ? 'recovery' : null;
}

/** Audit entry and security alert (if the user wants them) of a two-factor event, in the caller's transaction. */
export async function recordTwoFactorEvent(db: Db, userId: string, event: SecurityEvent, by: CodeRequester) {
  await recordAudit(db, { actorId: userId, action: `user.${event}`, entityType: 'user', entityId: userId });
  await queueSecurityAlert(db, { appUrl: by.appUrl, userId, event, client: by.client });
}

/**
 * Runs `work` (one transaction) for a code the user typed, counted against the code rate limits: a refusal
 * (AppError) keeps the attempt counted, success takes it back.
 */
async function withCodeLimit<T>(db: Db, userId: string, by: CodeRequester, work: () => Promise<T>): Promise<T> {
  const hitIds = await enforce(db, twoFactorRules(userId, by.client.ip), THROTTLED_CODES);
  const result = await work();
  await undo(db, hitIds);
  return result;
}

const invalidCode = () => badRequest(INVALID_CODE, 'invalid_code');

/**
 * Confirms the set-up with a code from the app: two-factor sign-in is on, ten new recovery codes (returned once,
 * stored hashed) replace any old ones, the user's sessions that waited for this set-up become full ones, and a
 * security alert is queued.
 */
export async function enableTwoFactor(db: Db, userId: string, code: string, by: CodeRequester): Promise<string[]> {
  return withCodeLimit(db, userId, by, () =>
    db.transaction(async (tx) => {
      const [u] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
      if (!u) throw notFound('Account not found.');
      if (u.twoFactorEnabledAt) throw conflict('Two-factor sign-in is already on.', 'two_factor_enabled');
      if (!u.twoFactorSecret) throw badRequest('Start the two-factor set-up first.', 'two_factor_not_started');
      if (!isTotpShaped(code) || (await consumeCode(tx, u, code)) !== 'totp') throw invalidCode();
      await tx.update(users).set({ twoFactorEnabledAt: new Date(), updatedAt: new Date() }).where(eq(users.id, userId));
      const codes = newRecoveryCodes();
      await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
      await tx.insert(twoFactorRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashRecoveryCode(c) })));
      await tx
        .update(sessions)
        .set({ stage: null })
        .where(and(eq(sessions.userId, userId), eq(sessions.stage, 'two_factor_setup')));
      await recordTwoFactorEvent(tx, userId, 'two_factor_enabled', by);
      return codes;
    }),
  );
}

/**
 * Turns two-factor sign-in off with a current code (or a recovery code): the secret and recovery codes are
 * forgotten and a security alert is queued. Refused while the workspace requires two-factor sign-in.
 */
export async function disableTwoFactor(db: Db, userId: string, code: string, by: CodeRequester): Promise<void> {
  if ((await readTwoFactorRules(db)).requireTwoFactor)
    throw forbidden(
      'Two-factor sign-in is required in this workspace and cannot be turned off.',
      'two_factor_required',
    );
  await withCodeLimit(db, userId, by, () =>
    db.transaction(async (tx) => {
      const [u] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
      if (!u) throw notFound('Account not found.');
      if (!u.twoFactorEnabledAt) throw conflict('Two-factor sign-in is not on.', 'two_factor_not_enabled');
      const kind = await consumeCode(tx, u, code);
      if (!kind) throw invalidCode();
      await tx
        .update(users)
        .set({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null, updatedAt: new Date() })
        .where(eq(users.id, userId));
      await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
      if (kind === 'recovery') await recordTwoFactorEvent(tx, userId, 'recovery_code_used', by);
      await recordTwoFactorEvent(tx, userId, 'two_factor_disabled', by);
    }),
  );
}
