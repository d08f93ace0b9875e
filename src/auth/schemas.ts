import type { Role } from '../db/schema/values';
import { z } from 'zod';

/** Account forms and payloads (spec §5); shared by the JSON API and the pages. Imports nothing server-only. */

export const MIN_PASSWORD = 8;
const PASSWORD_MESSAGE = 'Password must be at least 8 characters';

const email = z
  .string({ error: 'Invalid email address' })
  .trim()
  .max(255, 'Email is too long')
  .pipe(z.email({ error: 'Invalid email address' }))
  .transform((v) => v.toLowerCase());

const name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} is too long`);

/** A new password: 8 to 256 characters (argon2 is never fed megabytes). */
const newPassword = z
  .string({ error: PASSWORD_MESSAGE })
  .min(MIN_PASSWORD, PASSWORD_MESSAGE)
  .max(256, 'Password is too long');

export const registerSchema = z
  .object({
    firstName: name('First name'),
    lastName: name('Last name'),
    email,
    password: newPassword,
    confirmPassword: z.string({ error: PASSWORD_MESSAGE }).min(MIN_PASSWORD, PASSWORD_MESSAGE).max(256),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });
export type RegisterInput = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  email,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(256, 'Password is too long'),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    token: z.string({ error: 'Reset token is required' }).min(1, 'Reset token is required').max(200),
    password: newPassword,
    confirmPassword: z.string({ error: PASSWORD_MESSAGE }).min(1, "Passwords don't match").max(256),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** A two-factor code: six digits from the authenticator app, or a recovery code. */
export const twoFactorCodeSchema = z.object({
  code: z.string({ error: 'Code is required' }).trim().min(1, 'Code is required').max(64, 'Code is too long'),
});

export const verifyEmailQuery = z.object({
  token: z.string({ error: 'Verification token is required' }).min(1, 'Verification token is required').max(200),
});

/** The signed-in user a request carries (c.var.user), with their display preferences. */
export interface CurrentUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: Role;
  profileImageUrl: string | null;
  theme: 'light' | 'dark' | 'system';
  timezone: string;
  /** Settings › Compact view: every page renders denser (a class on <html>, set on the server). */
  compactView: boolean;
  /** Settings › Auto-save documents: the editor keeps an unsaved draft in the browser. */
  autoSave: boolean;
  /**
   * True while the user may only set up two-factor sign-in (the workspace requires it and theirs is not on). Set by
   * the session loader; undefined when whoever loaded the user (a Bearer token) did not work it out.
   */
  twoFactorSetupRequired?: boolean;
}
