import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { badRequest } from '../http/errors';
import { enforce, forget } from '../http/rate-limit';
import { enqueueMail, passwordResetMail } from '../mail/service';
import { queueSecurityAlert, type ClientInfo } from '../notifications/service';
import { notifyAdminsOfPendingAccount, statusAfterVerification, type UserRow } from './accounts';
import { hashPassword } from './password';
import type { ResetPasswordInput } from './schemas';
import { forgotPasswordRules, loginAccountKey, resetPasswordRules } from './limits';
import { generateToken, hashToken } from './tokens';

export const RESET_TTL_MS = 60 * 60 * 1000;

/** The one answer to every forgot-password request, known address or not. */
export const FORGOT_PASSWORD_MESSAGE = "If an account exists for that email, we've sent a link to reset the password.";

/**
 * Queues a reset link (1 h, single use, stored hashed) for a known account; does nothing visible otherwise.
 * Limited per e-mail address and per client address alike for known and unknown addresses (429).
 */
export async function requestPasswordReset(
  db: Db,
  appUrl: string,
  email: string,
  client: { ip: string },
): Promise<{ message: string }> {
  await enforce(db, forgotPasswordRules(email, client.ip));
  const token = generateToken();
  const tokenHash = hashToken(token);
  await db.transaction(async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.email, email)).for('update').limit(1);
    if (!u || u.accountStatus === 'rejected') return;
    await tx
      .update(users)
      .set({ passwordResetToken: tokenHash, passwordResetExpires: new Date(Date.now() + RESET_TTL_MS) })
      .where(eq(users.id, u.id));
    const url = `${appUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await enqueueMail(tx, {
      dedupeKey: `reset:${u.id}:${tokenHash}`,
      to: u.email,
      ...passwordResetMail({ firstName: u.firstName, url }),
    });
  });
  return { message: FORGOT_PASSWORD_MESSAGE };
}

/**
 * A reset link proves the address as a verification link does, and the password is now the owner's: a
 * never-verified account (its link lost or expired, or registered by someone else) is verified by the reset.
 */
function verifiedByReset(u: UserRow): Partial<UserRow> {
  if (u.accountStatus !== 'pending_verification') return {};
  return {
    isEmailVerified: true,
    emailVerificationToken: null,
    emailVerificationExpires: null,
    accountStatus: statusAfterVerification(u),
  };
}

export const RESET_DONE_MESSAGE = 'Your password has been reset. Please sign in with your new password.';

const INVALID_RESET = 'This password reset link is invalid or has expired.';

/** The account a live reset token belongs to (a cheap lookup, done before any hashing). */
async function accountOfResetToken(db: Db, tokenHash: string, lock = false) {
  const query = db.select().from(users).where(eq(users.passwordResetToken, tokenHash)).limit(1);
  const [u] = lock ? await query.for('update') : await query;
  if (!u?.passwordResetExpires || u.passwordResetExpires.getTime() <= Date.now())
    throw badRequest(INVALID_RESET, 'invalid_token');
  return u;
}

/**
 * Sets a new password with a reset token (single use, 1 h), signs the account out everywhere and queues a
 * security alert (unless the user switched those off). Limited per client address; the token is looked up
 * before the new password is hashed, so bogus tokens cost no argon2 work.
 */
export async function resetPassword(
  db: Db,
  input: ResetPasswordInput,
  by: { appUrl: string; client: ClientInfo & { ip: string } },
): Promise<{ message: string }> {
  await enforce(db, resetPasswordRules(by.client.ip));
  const tokenHash = hashToken(input.token);
  await accountOfResetToken(db, tokenHash);
  const password = await hashPassword(input.password);
  const email = await db.transaction(async (tx) => {
    const u = await accountOfResetToken(tx, tokenHash, true);
    await tx
      .update(users)
      .set({
        password,
        passwordUpdatedAt: new Date(),
        passwordResetToken: null,
        passwordResetExpires: null,
        ...verifiedByReset(u),
      })
      .where(eq(users.id, u.id));
    if (u.accountStatus === 'pending_verification' && statusAfterVerification(u) === 'pending_approval') {
      await notifyAdminsOfPendingAccount(tx, by.appUrl, u);
    }
    await tx.delete(sessions).where(eq(sessions.userId, u.id));
    await queueSecurityAlert(tx, { appUrl: by.appUrl, userId: u.id, event: 'password_reset', client: by.client });
    return u.email;
  });
  // The owner proved the address: sign-in failures counted against the account no longer matter.
  await forget(db, [loginAccountKey(email)]);
  return { message: RESET_DONE_MESSAGE };
}
