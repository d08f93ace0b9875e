import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { approvalRequestMail, enqueueMail, verificationMail } from '../mail/service';

/** Shared account helpers for the auth services (no HTTP here). */

export type UserRow = typeof users.$inferSelect;

/** Serialises account creation so exactly one first account becomes admin. */
const ACCOUNT_CREATION_LOCK = 7_301_003;

/** Inside a transaction: takes the account-creation lock, then tells whether the database has no user yet. */
export async function lockAndCheckFirstAccount(tx: Db): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_CREATION_LOCK})`);
  const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
  return Number(n) === 0;
}

/** The user's public shape (what /api/auth/user answers). */
export function publicUser(u: Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'profileImageUrl'>) {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role,
    profileImageUrl: u.profileImageUrl,
  };
}
export type PublicUser = ReturnType<typeof publicUser>;

export const displayNameOf = (u: Pick<UserRow, 'firstName' | 'lastName' | 'email'>) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ').trim() || u.email;

/** The display name of an account by id ("Someone" for none or a deleted one): the texts of notifications. */
export async function displayNameById(db: Db, id: string | null): Promise<string> {
  if (!id) return 'Someone';
  const [u] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, id));
  return u ? displayNameOf(u) : 'Someone';
}

/** Status after the e-mail is confirmed: the first admin and pre-approved accounts are active, others await approval. */
export const statusAfterVerification = (u: Pick<UserRow, 'role' | 'approvedAt'>) =>
  u.role === 'admin' || u.approvedAt ? ('active' as const) : ('pending_approval' as const);

/** Queues the verification e-mail (same transaction as the token it carries). */
export async function queueVerificationMail(
  tx: Db,
  appUrl: string,
  user: Pick<UserRow, 'id' | 'email' | 'firstName'>,
  token: string,
  tokenHash: string,
) {
  const url = `${appUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await enqueueMail(tx, {
    dedupeKey: `verify:${user.id}:${tokenHash}`,
    to: user.email,
    ...verificationMail({ firstName: user.firstName, url }),
  });
}

/** Queues "new account awaiting approval" to every active admin, naming the account and linking /admin/approval. */
export async function notifyAdminsOfPendingAccount(
  tx: Db,
  appUrl: string,
  user: Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName'>,
) {
  const admins = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.accountStatus, 'active')));
  const content = approvalRequestMail({
    name: displayNameOf(user),
    email: user.email,
    url: `${appUrl}/admin/approval`,
  });
  for (const admin of admins) {
    await enqueueMail(tx, { dedupeKey: `approval-request:${user.id}:${admin.id}`, to: admin.email, ...content });
  }
  return admins.length;
}
