import { and, count, eq, ne } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import { hashPassword, revokeUserSessions, verifyPassword } from '../auth/service';
import type { Db } from '../db/client';
import { DEFAULT_TIMEZONE, sessions, userPreferences, users } from '../db/schema';
import { badRequest, conflict, notFound } from '../http/errors';
import { queueSecurityAlert, type ClientInfo } from '../notifications/service';
import type { PreferencesInput, ProfileInput, Settings } from './schemas';

/** Defaults of spec §9 (the table's column defaults) for a user without a preferences row. */
const defaults = {
  department: 'IT Operations',
  timezone: DEFAULT_TIMEZONE,
  emailNotifications: true,
  pushNotifications: false,
  securityAlerts: true,
  healthReports: false,
  reportTeam: null,
  theme: 'system' as const,
  autoSave: true,
  compactView: false,
};

/** Everything the settings page shows for one user. */
export async function getSettings(db: Db, userId: string, currentSid: string | null): Promise<Settings> {
  const [row] = await db
    .select({ user: users, prefs: userPreferences })
    .from(users)
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound('Account not found.');
  const [{ n }] = await db
    .select({ n: count() })
    .from(sessions)
    .where(currentSid ? and(eq(sessions.userId, userId), ne(sessions.sid, currentSid)) : eq(sessions.userId, userId));
  const { user: u, prefs } = row;
  const p = prefs ?? defaults;
  return {
    email: u.email,
    firstName: u.firstName ?? '',
    lastName: u.lastName ?? '',
    role: u.role,
    createdAt: u.createdAt.toISOString(),
    hasPassword: !!u.password,
    passwordUpdatedAt: (u.passwordUpdatedAt ?? u.createdAt).toISOString(),
    profileImageUrl: u.profileImageUrl,
    otherSessions: Number(n),
    department: p.department,
    timezone: p.timezone,
    emailNotifications: p.emailNotifications,
    pushNotifications: p.pushNotifications,
    securityAlerts: p.securityAlerts,
    healthReports: p.healthReports,
    reportTeam: p.reportTeam || null,
    theme: p.theme,
    autoSave: p.autoSave,
    compactView: p.compactView,
  };
}

/** Saves some preferences (insert or update of the user's row). */
export async function savePreferences(
  db: Db,
  userId: string,
  input: PreferencesInput & { department?: string; timezone?: string },
): Promise<void> {
  await db
    .insert(userPreferences)
    .values({ userId, ...input })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...input, updatedAt: new Date() } });
}

/** Name on the account; department and timezone in the preferences. */
export async function updateProfile(db: Db, userId: string, input: ProfileInput): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ firstName: input.firstName, lastName: input.lastName, updatedAt: new Date() })
      .where(eq(users.id, userId));
    await savePreferences(tx, userId, { department: input.department, timezone: input.timezone });
  });
}

/** Who asked, for the security alert: the app's URL (for links) and the client's address and browser. */
export interface Requester {
  appUrl: string;
  keepSid: string | null;
  client?: ClientInfo;
}

/**
 * Changes the password (the current one is required when there is one), voids outstanding reset links,
 * signs out the other sessions and queues a security alert, all in one transaction.
 */
export async function changePassword(
  db: Db,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  by: Requester,
): Promise<void> {
  const [u] = await db.select({ password: users.password }).from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw notFound('Account not found.');
  if (u.password) {
    if (!input.currentPassword) throw badRequest('Current password is required.', 'current_password');
    if (!(await verifyPassword(u.password, input.currentPassword)))
      throw badRequest('Current password is incorrect.', 'current_password');
  }
  const hash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        password: hash,
        passwordUpdatedAt: new Date(),
        updatedAt: new Date(),
        passwordResetToken: null,
        passwordResetExpires: null,
      })
      .where(eq(users.id, userId));
    await revokeUserSessions(tx, userId, by.keepSid ?? undefined);
    await recordAudit(tx, { actorId: userId, action: 'user.password_change', entityType: 'user', entityId: userId });
    await queueSecurityAlert(tx, { appUrl: by.appUrl, userId, event: 'password_changed', client: by.client });
  });
}

/** Ends every session of the user except this one and queues a security alert; returns how many ended. */
export async function signOutOtherSessions(db: Db, userId: string, by: Requester): Promise<number> {
  return db.transaction(async (tx) => {
    const before = await tx.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId));
    await revokeUserSessions(tx, userId, by.keepSid ?? undefined);
    await recordAudit(tx, { actorId: userId, action: 'user.sessions_revoked', entityType: 'user', entityId: userId });
    await queueSecurityAlert(tx, { appUrl: by.appUrl, userId, event: 'sessions_revoked', client: by.client });
    return Number(before[0].n) - (by.keepSid ? 1 : 0);
  });
}

/** Deletes the account after the e-mail is typed; the last active admin cannot delete theirs. */
export async function deleteAccount(db: Db, userId: string, confirmEmail: string): Promise<void> {
  await db.transaction(async (tx) => {
    // Lock the admins too, so two admins deleting themselves at once cannot leave none.
    await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).for('update');
    const [u] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
    if (!u) throw notFound('Account not found.');
    if (confirmEmail.trim().toLowerCase() !== u.email.toLowerCase())
      throw badRequest('Type your email address exactly to confirm.', 'confirm_email');
    if (u.role === 'admin') {
      const [{ n }] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, 'admin'), eq(users.accountStatus, 'active'), ne(users.id, userId)));
      if (Number(n) === 0)
        throw conflict(
          'You are the last administrator. Make someone else an admin before deleting your account.',
          'last_admin',
        );
    }
    await recordAudit(tx, {
      actorId: null,
      action: 'user.delete_self',
      entityType: 'user',
      entityId: userId,
      details: { email: u.email },
    });
    await tx.delete(users).where(eq(users.id, userId));
  });
}
