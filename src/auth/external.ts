import { eq, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { AppError } from '../http/errors';
import { activateInvitedMember } from '../team/service';
import {
  lockAndCheckFirstAccount,
  notifyAdminsOfPendingAccount,
  statusAfterVerification,
  type UserRow,
} from './accounts';

export interface ExternalIdentity {
  /** 'google' or 'oidc' (stored as the account's auth provider). */
  provider: string;
  issuer: string;
  subject: string;
  email?: string;
  emailVerified?: boolean;
  firstName?: string;
  lastName?: string;
  picture?: string;
}

/**
 * Signs in with a Google/OIDC identity: finds the account linked to it, or links the account with the
 * same verified e-mail, or creates one (admin if first; otherwise awaiting approval). A verified
 * provider e-mail counts as e-mail verification. Returns the account as it now stands.
 */
export async function signInExternal(db: Db, appUrl: string, id: ExternalIdentity): Promise<UserRow> {
  const email = id.email?.trim().toLowerCase();
  if (!email || id.emailVerified !== true)
    throw new AppError(403, 'The provider did not confirm your email address.', 'email_not_verified');
  const externalId = `${id.issuer}|${id.subject}`.slice(0, 255);
  return db.transaction(async (tx) => {
    const first = await lockAndCheckFirstAccount(tx);
    const found = await tx
      .select()
      .from(users)
      .where(or(eq(users.externalId, externalId), eq(users.email, email)));
    const existing = found.find((u) => u.externalId === externalId) ?? found.find((u) => u.email === email);
    const user = existing
      ? await linkExisting(tx, appUrl, existing, id, externalId)
      : await createAccount(tx, appUrl, id, { email, externalId, first });
    // The provider confirmed the address: an invitation to it is taken up.
    await activateInvitedMember(tx, user.email);
    return user;
  });
}

/** A new account for a provider identity: admin if first, otherwise awaiting approval (admins are told). */
async function createAccount(
  tx: Db,
  appUrl: string,
  id: ExternalIdentity,
  a: { email: string; externalId: string; first: boolean },
): Promise<UserRow> {
  const [created] = await tx
    .insert(users)
    .values({
      email: a.email,
      firstName: id.firstName?.slice(0, 100) ?? null,
      lastName: id.lastName?.slice(0, 100) ?? null,
      profileImageUrl: id.picture ?? null,
      role: a.first ? 'admin' : 'editor',
      authProvider: id.provider,
      externalId: a.externalId,
      isEmailVerified: true,
      accountStatus: a.first ? 'active' : 'pending_approval',
    })
    .returning();
  if (created.accountStatus === 'pending_approval') await notifyAdminsOfPendingAccount(tx, appUrl, created);
  return created;
}

/**
 * Links the identity to an existing account. An account whose address was never verified was registered
 * by someone who did not prove they own it: their password and the names they typed are dropped (the
 * provider's names replace them), so only the provider's sign-in opens it.
 */
async function linkExisting(
  tx: Db,
  appUrl: string,
  u: UserRow,
  id: ExternalIdentity,
  externalId: string,
): Promise<UserRow> {
  if (u.externalId && u.externalId !== externalId) {
    throw new AppError(409, 'This email address is linked to another sign-in identity.', 'identity_conflict');
  }
  const status = u.accountStatus === 'pending_verification' ? statusAfterVerification(u) : u.accountStatus;
  const unproven = u.isEmailVerified
    ? {}
    : {
        password: null,
        passwordUpdatedAt: null,
        passwordResetToken: null,
        passwordResetExpires: null,
        firstName: id.firstName?.slice(0, 100) ?? null,
        lastName: id.lastName?.slice(0, 100) ?? null,
        authProvider: id.provider,
      };
  const [updated] = await tx
    .update(users)
    .set({
      ...unproven,
      externalId,
      isEmailVerified: true,
      emailVerificationToken: null,
      emailVerificationExpires: null,
      accountStatus: status,
    })
    .where(eq(users.id, u.id))
    .returning();
  if (status === 'pending_approval' && u.accountStatus !== 'pending_approval')
    await notifyAdminsOfPendingAccount(tx, appUrl, updated);
  return updated;
}
