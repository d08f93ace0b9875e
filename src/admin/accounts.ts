import { and, asc, count, eq, ne } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import {
  displayNameOf,
  generateToken,
  hashToken,
  queueVerificationMail,
  revokeUserSessions,
  VERIFY_TTL_MS,
} from '../auth/service';
import type { Db } from '../db/client';
import { twoFactorRecoveryCodes, users } from '../db/schema';
import type { Role } from '../db/schema/values';
import { conflict, notFound } from '../http/errors';
import { enforce } from '../http/rate-limit';
import type { Actor } from './service';

/** One account as /admin/users lists it. */
export interface Account {
  id: string;
  name: string;
  email: string;
  role: Role;
  status: (typeof users.$inferSelect)['accountStatus'];
  isEmailVerified: boolean;
  authProvider: string;
  lastSignInAt: string | null;
  twoFactorEnabled: boolean;
  createdAt: string;
}

type UserRow = typeof users.$inferSelect;

const toAccount = (u: UserRow): Account => ({
  id: u.id,
  name: displayNameOf(u),
  email: u.email,
  role: u.role,
  status: u.accountStatus,
  isEmailVerified: u.isEmailVerified,
  authProvider: u.authProvider,
  lastSignInAt: u.lastSignInAt?.toISOString() ?? null,
  twoFactorEnabled: u.twoFactorEnabledAt !== null,
  createdAt: u.createdAt.toISOString(),
});

/** Every account, oldest first (the first account, the workspace's founding admin, on top). */
export async function listAccounts(db: Db): Promise<Account[]> {
  const rows = await db.select().from(users).orderBy(asc(users.createdAt), asc(users.email));
  return rows.map(toAccount);
}

export const LAST_ADMIN_MESSAGE =
  'This is the last active admin: make another account an admin before demoting or deactivating this one.';

/** Locks the target account and every admin row, so two changes at once cannot leave no active admin. */
async function lockForChange(tx: Db, userId: string): Promise<UserRow> {
  await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).for('update');
  const [u] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
  if (!u) throw notFound('User not found.');
  return u;
}

/** 409 when `u` is the only active admin (call with the admin rows locked). */
async function refuseLastAdmin(tx: Db, u: UserRow): Promise<void> {
  if (u.role !== 'admin' || u.accountStatus !== 'active') return;
  const [{ n }] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.accountStatus, 'active'), ne(users.id, u.id)));
  if (Number(n) === 0) throw conflict(LAST_ADMIN_MESSAGE, 'last_admin');
}

export interface AccountChange {
  role?: Role;
  status?: 'active' | 'deactivated';
}

/**
 * Changes an account's role and/or status in one transaction, audit-logged. Deactivation ends every session of the
 * account; reactivation is only for deactivated accounts. The last active admin can be neither demoted nor deactivated.
 */
export async function changeAccount(db: Db, actor: Actor, userId: string, change: AccountChange): Promise<Account> {
  return db.transaction(async (tx) => {
    const u = await lockForChange(tx, userId);
    const role = change.role ?? u.role;
    const deactivate = change.status === 'deactivated';
    const reactivate = change.status === 'active' && u.accountStatus === 'deactivated';
    if (deactivate && u.accountStatus !== 'active')
      throw conflict('Only an active account can be deactivated.', 'not_active');
    if (change.status === 'active' && !reactivate && u.accountStatus !== 'active')
      throw conflict('Only a deactivated account can be reactivated.', 'not_deactivated');
    if (role !== 'admin' || deactivate) await refuseLastAdmin(tx, u);

    const set: Partial<UserRow> = { role, updatedAt: new Date() };
    if (deactivate) set.accountStatus = 'deactivated';
    if (reactivate) set.accountStatus = 'active';
    const [updated] = await tx.update(users).set(set).where(eq(users.id, u.id)).returning();
    if (deactivate) await revokeUserSessions(tx, u.id);

    const audit = { actorId: actor.id, entityType: 'user', entityId: u.id } as const;
    if (role !== u.role)
      await recordAudit(tx, {
        ...audit,
        action: 'user.role_changed',
        details: { email: u.email, from: u.role, to: role },
      });
    if (deactivate) await recordAudit(tx, { ...audit, action: 'user.deactivated', details: { email: u.email } });
    if (reactivate) await recordAudit(tx, { ...audit, action: 'user.reactivated', details: { email: u.email } });
    return toAccount(updated);
  });
}

/** Turns the account's two-factor sign-in off (secret, last step, recovery codes), audit-logged; they set it up again. */
export async function resetTwoFactor(db: Db, actor: Actor, userId: string): Promise<Account> {
  return db.transaction(async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
    if (!u) throw notFound('User not found.');
    const [updated] = await tx
      .update(users)
      .set({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null, updatedAt: new Date() })
      .where(eq(users.id, u.id))
      .returning();
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, u.id));
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'user.two_factor_reset',
      entityType: 'user',
      entityId: u.id,
      details: { email: u.email, wasEnabled: u.twoFactorEnabledAt !== null },
    });
    return toAccount(updated);
  });
}

/** Verification e-mails an admin may resend to one account: 3 an hour, so a click loop cannot flood a mailbox. */
export const RESEND_VERIFICATION_LIMIT = { limit: 3, windowSeconds: 60 * 60 };

/** E-mails a fresh verification link (24 h; the old one stops working) to an account whose address is unverified. */
export async function resendVerification(db: Db, appUrl: string, actor: Actor, userId: string): Promise<Account> {
  await enforce(
    db,
    [{ key: `resend-verification:${userId}`, ...RESEND_VERIFICATION_LIMIT }],
    'A verification e-mail was resent to this account several times this hour. Please try again later.',
  );
  const token = generateToken();
  const tokenHash = hashToken(token);
  return db.transaction(async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
    if (!u) throw notFound('User not found.');
    if (u.isEmailVerified) throw conflict('This email address is already verified.', 'already_verified');
    const [updated] = await tx
      .update(users)
      .set({
        emailVerificationToken: tokenHash,
        emailVerificationExpires: new Date(Date.now() + VERIFY_TTL_MS),
        updatedAt: new Date(),
      })
      .where(eq(users.id, u.id))
      .returning();
    await queueVerificationMail(tx, appUrl, u, token, tokenHash);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'user.verification_resent',
      entityType: 'user',
      entityId: u.id,
      details: { email: u.email },
    });
    return toAccount(updated);
  });
}
