import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { recordAudit } from '../audit/service';
import { pruneExpiredHits } from '../http/rate-limit';
import { deleteExpiredSessions } from './sessions';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ExpiryResult {
  verificationTokens: number;
  resetTokens: number;
  sessions: number;
  unverifiedAccounts: number;
  rateLimitHits: number;
}

/**
 * In one transaction: removes accounts still pending verification after `unverifiedAccountDays` (audit-logged),
 * clears expired e-mail verification and password reset tokens, and deletes expired sessions and rate-limit hits.
 * Returns the counts.
 */
export function expireAccountsAndTokens(
  db: Db,
  opts: { unverifiedAccountDays: number; now?: Date },
): Promise<ExpiryResult> {
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const unverifiedAccounts = await removeUnverifiedAccounts(
      tx,
      new Date(now.getTime() - opts.unverifiedAccountDays * DAY_MS),
      opts.unverifiedAccountDays,
    );
    const verification = await tx
      .update(users)
      .set({ emailVerificationToken: null, emailVerificationExpires: null })
      .where(lt(users.emailVerificationExpires, now))
      .returning({ id: users.id });
    const reset = await tx
      .update(users)
      .set({ passwordResetToken: null, passwordResetExpires: null })
      .where(lt(users.passwordResetExpires, now))
      .returning({ id: users.id });
    const sessions = await deleteExpiredSessions(tx, now);
    const rateLimitHits = await pruneExpiredHits(tx);
    return {
      verificationTokens: verification.length,
      resetTokens: reset.length,
      sessions,
      unverifiedAccounts,
      rateLimitHits,
    };
  });
}

/** Deletes accounts created before `cutoff` that never verified their e-mail; one audit entry per account. */
async function removeUnverifiedAccounts(db: Db, cutoff: Date, days: number): Promise<number> {
  const removed = await db
    .delete(users)
    .where(and(eq(users.accountStatus, 'pending_verification'), lt(users.createdAt, cutoff)))
    .returning({ id: users.id, email: users.email, createdAt: users.createdAt });
  for (const u of removed) {
    await recordAudit(db, {
      action: 'user.unverified_removed',
      entityType: 'user',
      entityId: u.id,
      details: { email: u.email, createdAt: u.createdAt.toISOString(), reason: `not verified within ${days} days` },
    });
  }
  return removed.length;
}
