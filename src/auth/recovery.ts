import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { badRequest } from '../http/errors';
import { enqueueMail } from '../mail/outbox';
import { passwordResetMail } from '../mail/templates';
import { queueSecurityAlert, type ClientInfo } from '../notifications/service';
import { hashPassword } from './password';
import type { ResetPasswordInput } from './schemas';
import { clearFailures, throttleKeys } from './throttle';
import { generateToken, hashToken } from './tokens';

export const RESET_TTL_MS = 60 * 60 * 1000;

/** The one answer to every forgot-password request, known address or not. */
export const FORGOT_PASSWORD_MESSAGE = "If an account exists for that email, we've sent a link to reset the password.";

/** Queues a reset link (1 h, single use, stored hashed) for a known account; does nothing visible otherwise. */
export async function requestPasswordReset(db: Db, appUrl: string, email: string): Promise<{ message: string }> {
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
    await enqueueMail(tx, { dedupeKey: `reset:${u.id}:${tokenHash}`, to: u.email, ...passwordResetMail({ firstName: u.firstName, url }) });
  });
  return { message: FORGOT_PASSWORD_MESSAGE };
}

export const RESET_DONE_MESSAGE = 'Your password has been reset. Please sign in with your new password.';

/**
 * Sets a new password with a reset token (single use, 1 h), signs the account out everywhere and queues a
 * security alert (unless the user switched those off).
 */
export async function resetPassword(db: Db, input: ResetPasswordInput, by: { appUrl: string; client?: ClientInfo }): Promise<{ message: string }> {
  const password = await hashPassword(input.password);
  const tokenHash = hashToken(input.token);
  const email = await db.transaction(async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.passwordResetToken, tokenHash)).for('update').limit(1);
    if (!u || !u.passwordResetExpires || u.passwordResetExpires.getTime() <= Date.now()) {
      throw badRequest('This password reset link is invalid or has expired.', 'invalid_token');
    }
    await tx
      .update(users)
      .set({ password, passwordUpdatedAt: new Date(), passwordResetToken: null, passwordResetExpires: null })
      .where(eq(users.id, u.id));
    await tx.delete(sessions).where(eq(sessions.userId, u.id));
    await queueSecurityAlert(tx, { appUrl: by.appUrl, userId: u.id, event: 'password_reset', client: by.client });
    return u.email;
  });
  await clearFailures(db, throttleKeys(email, '')[0]);
  return { message: RESET_DONE_MESSAGE };
}
