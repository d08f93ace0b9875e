import { asc, eq, inArray } from 'drizzle-orm';
import { displayNameOf, publicUser } from '../auth/service';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import type { Role } from '../db/schema/values';
import { conflict, notFound } from '../http/errors';
import { approvedMail, enqueueMail, rejectedMail } from '../mail/service';
import { queueWebhookEvent } from '../webhooks/service';

// Workspace security settings (other features read them through this public surface).
export { getSecuritySettings, setSecuritySettings, type SecuritySettings } from './security-settings';

const PENDING = ['pending_verification', 'pending_approval'] as const;

export interface PendingUser {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  role: string;
  authProvider: string;
  createdAt: string;
  isEmailVerified: boolean;
}

/** Accounts awaiting a decision (spec §3 "Pending user"), oldest first. */
export async function listPendingUsers(db: Db): Promise<PendingUser[]> {
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
      authProvider: users.authProvider,
      createdAt: users.createdAt,
      isEmailVerified: users.isEmailVerified,
    })
    .from(users)
    .where(inArray(users.accountStatus, [...PENDING]))
    .orderBy(asc(users.createdAt));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

export interface Actor {
  id: string;
  email: string;
}

export type Decision = 'approve' | 'reject';

/**
 * An admin's decision on a pending account, in one transaction with its audit entry and e-mail:
 * approve → active (or active as soon as the e-mail is verified) with the role the admin picked (editor unless
 * told); reject → rejected, signed out.
 */
export async function decideUser(
  db: Db,
  appUrl: string,
  actor: Actor,
  userId: string,
  decision: Decision,
  role: Role = 'editor',
) {
  return db.transaction(async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
    if (!u) throw notFound('User not found.');
    if (!(PENDING as readonly string[]).includes(u.accountStatus))
      throw conflict('This user is not awaiting approval.', 'not_pending');
    const now = new Date();
    const status = decision === 'reject' ? 'rejected' : u.isEmailVerified ? 'active' : 'pending_verification';
    const [updated] = await tx
      .update(users)
      .set(
        decision === 'approve'
          ? { accountStatus: status, approvedAt: now, approvedBy: actor.id, role }
          : { accountStatus: status, approvedAt: null, approvedBy: null },
      )
      .where(eq(users.id, u.id))
      .returning();
    if (decision === 'reject') await tx.delete(sessions).where(eq(sessions.userId, u.id));
    await recordAudit(tx, {
      actorId: actor.id,
      action: decision === 'approve' ? 'user.approved' : 'user.rejected',
      entityType: 'user',
      entityId: u.id,
      details: {
        email: u.email,
        decidedBy: actor.email,
        decidedAt: now.toISOString(),
        status,
        ...(decision === 'approve' ? { role } : {}),
      },
    });
    if (decision === 'approve')
      await queueWebhookEvent(tx, 'user.approved', {
        // No e-mail address (not even as the name of one who gave none): who joined, not how to reach them.
        user: { id: u.id, name: [u.firstName, u.lastName].filter(Boolean).join(' ').trim() || null, role },
        actorId: actor.id,
      });
    if (status !== 'pending_verification') {
      const mail =
        decision === 'approve'
          ? approvedMail({ firstName: u.firstName, url: `${appUrl}/login` })
          : rejectedMail({ firstName: u.firstName, url: appUrl });
      await enqueueMail(tx, { dedupeKey: `${decision}:${u.id}`, to: u.email, ...mail });
    }
    return { user: publicUser(updated), name: displayNameOf(u), status };
  });
}

/** Recovery (CLI): makes an existing account an active, verified admin. Null when no such e-mail. */
export async function promoteToAdmin(db: Db, email: string) {
  return db.transaction(async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.email, email.trim().toLowerCase())).for('update').limit(1);
    if (!u) return null;
    const [updated] = await tx
      .update(users)
      .set({ role: 'admin', accountStatus: 'active', isEmailVerified: true, approvedAt: u.approvedAt ?? new Date() })
      .where(eq(users.id, u.id))
      .returning();
    await recordAudit(tx, {
      action: 'user.promoted',
      entityType: 'user',
      entityId: u.id,
      details: { email: u.email, via: 'cli', previousRole: u.role, previousStatus: u.accountStatus },
    });
    return publicUser(updated);
  });
}
