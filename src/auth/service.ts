import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { AppError, badRequest, forbidden } from '../http/errors';
import { enforce, forget, undo } from '../http/rate-limit';
import { enqueueMail, registrationAttemptMail } from '../mail/service';
import { activateInvitedMember } from '../team/service';
import {
  lockAndCheckFirstAccount,
  notifyAdminsOfPendingAccount,
  publicUser,
  queueVerificationMail,
  statusAfterVerification,
  type UserRow,
} from './accounts';
import { hashPassword, verifyDummyPassword, verifyPassword } from './password';
import type { LoginInput, RegisterInput } from './schemas';
import { recordSignInFailure } from './sign-in-audit';
import { openSignInSession } from './two-factor-signin';
import { loginKeys, loginRules, registerRules, THROTTLED_LOGIN } from './limits';
import { generateToken, hashToken } from './tokens';

const HOUR_MS = 60 * 60 * 1000;
export const VERIFY_TTL_MS = 24 * HOUR_MS;

/**
 * Registers an account (the first one on an empty database becomes admin) and queues its verification
 * e-mail. A known address gets the same answer after the same work, and its owner an e-mail instead
 * (at most one a day), so registration does not tell which addresses have accounts.
 */
export async function registerUser(
  db: Db,
  appUrl: string,
  input: RegisterInput,
  client: { ip: string },
): Promise<{ email: string }> {
  await enforce(db, registerRules(input.email, client.ip));
  const password = await hashPassword(input.password);
  const token = generateToken();
  const tokenHash = hashToken(token);
  await db.transaction(async (tx) => {
    const first = await lockAndCheckFirstAccount(tx);
    const [taken] = await tx.select().from(users).where(eq(users.email, input.email)).limit(1);
    if (taken) return queueRegistrationAttemptMail(tx, appUrl, taken);
    const [created] = await tx
      .insert(users)
      .values({
        email: input.email,
        password,
        passwordUpdatedAt: new Date(),
        firstName: input.firstName,
        lastName: input.lastName,
        role: first ? 'admin' : 'editor',
        authProvider: 'local',
        emailVerificationToken: tokenHash,
        emailVerificationExpires: new Date(Date.now() + VERIFY_TTL_MS),
      })
      .returning();
    await queueVerificationMail(tx, appUrl, created, token, tokenHash);
  });
  return { email: input.email };
}

/** "Someone tried to register with your address": sign in or reset the password (deduplicated per day). */
async function queueRegistrationAttemptMail(tx: Db, appUrl: string, owner: UserRow) {
  const day = new Date().toISOString().slice(0, 10);
  const content = registrationAttemptMail({
    firstName: owner.firstName,
    loginUrl: `${appUrl}/login`,
    resetUrl: `${appUrl}/forgot-password`,
  });
  await enqueueMail(tx, { dedupeKey: `register-attempt:${owner.id}:${day}`, to: owner.email, ...content });
}

export interface VerifyResult {
  status: UserRow['accountStatus'];
  message: string;
}

const verifyMessages: Record<string, string> = {
  pending_approval: 'Your email has been verified. Your account is now awaiting admin approval.',
  active: 'Your email has been verified. You can now sign in.',
};

/** Confirms an e-mail address with a single-use token (24 h); the account then awaits approval or is active. */
export async function verifyEmail(db: Db, appUrl: string, token: string): Promise<VerifyResult> {
  const tokenHash = hashToken(token);
  return db.transaction(async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.emailVerificationToken, tokenHash)).for('update').limit(1);
    if (!u?.emailVerificationExpires || u.emailVerificationExpires.getTime() <= Date.now()) {
      throw badRequest('This verification link is invalid or has expired.', 'invalid_token');
    }
    const status = u.accountStatus === 'pending_verification' ? statusAfterVerification(u) : u.accountStatus;
    await tx
      .update(users)
      .set({
        isEmailVerified: true,
        emailVerificationToken: null,
        emailVerificationExpires: null,
        accountStatus: status,
      })
      .where(eq(users.id, u.id));
    if (status === 'pending_approval' && u.accountStatus !== 'pending_approval')
      await notifyAdminsOfPendingAccount(tx, appUrl, u);
    await activateInvitedMember(tx, u.email);
    return { status, message: verifyMessages[status] ?? 'Your email has been verified.' };
  });
}

/** Why an account with the right password may not sign in yet (spec §8 texts and codes). */
export const accountStateErrors: Record<string, { code: string; message: string }> = {
  pending_verification: {
    code: 'email_not_verified',
    message: 'Please verify your email address before signing in. Check your inbox for the verification link.',
  },
  pending_approval: {
    code: 'pending_approval',
    message: 'Your account is pending admin approval. Please wait for approval.',
  },
  rejected: { code: 'account_rejected', message: 'Your account has been rejected. Please contact support.' },
};
const notApproved = { code: 'not_approved', message: 'Your account is not approved for login.' };

/** 403 with the account-state code for a user who is not active. */
export function accountStateError(status: string): AppError {
  const e = accountStateErrors[status] ?? notApproved;
  return forbidden(e.message, e.code);
}

export const INVALID_CREDENTIALS = 'Invalid email or password.';

/**
 * Password sign-in (recorded as the directory member's "Last active" once the session is usable): the attempt is counted before the password is checked (atomically: concurrent
 * attempts cannot pass one check together) per account and address, with higher ceilings per account
 * and per address (429); the same 401 for an unknown e-mail and a wrong password (a dummy hash is checked
 * for unknown e-mails); 403 + code for inactive accounts. A right password takes its attempt back, and a
 * sign-in clears the account-and-address and the address counts.
 */
export async function loginWithPassword(db: Db, input: LoginInput, client: { ip: string; userAgent?: string }) {
  const hitIds = await enforce(db, loginRules(input.email, client.ip), THROTTLED_LOGIN);
  const [u] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  const ok = u?.password ? await verifyPassword(u.password, input.password) : await verifyDummyPassword(input.password);
  const attempt = { userId: u?.id ?? null, email: input.email, method: 'password' as const, ip: client.ip };
  if (!u || !ok) {
    await recordSignInFailure(db, { ...attempt, reason: 'invalid_credentials' });
    throw new AppError(401, INVALID_CREDENTIALS, 'invalid_credentials');
  }
  await undo(db, hitIds);
  if (u.accountStatus !== 'active') {
    await recordSignInFailure(db, { ...attempt, reason: `account_${u.accountStatus}` });
    throw accountStateError(u.accountStatus);
  }
  const keys = loginKeys(input.email, client.ip);
  await forget(db, [keys.accountAndAddress, keys.address]);
  // The session owes the two-factor code or set-up when those apply (session.stage).
  const session = await openSignInSession(db, u, 'password', client);
  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, u.id));
  return { user: publicUser(u), session };
}

// What other features use of accounts: they import it from here, the feature's public surface.
export { displayNameById, displayNameOf, publicUser, queueVerificationMail } from './accounts';
export { hashPassword, verifyPassword } from './password';
export { revokeUserSessions } from './sessions';
export { disableTwoFactor, enableTwoFactor, startTwoFactorSetup, twoFactorState } from './two-factor';
export type { TwoFactorState } from './two-factor';
export { twoFactorCodeSchema } from './schemas';
export { generateToken, hashToken } from './tokens';
export { BEARER_INVALID, bearerOf, findTokenUser, type TokenUser } from './bearer';
export { SETUP_REQUIRED_MESSAGE } from './two-factor-gate';
