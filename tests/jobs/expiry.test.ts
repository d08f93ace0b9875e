import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireAccountsAndTokens } from '../../src/auth/expiry';
import { queryRows, type Database } from '../../src/db/client';
import { auditLog, sessions, users } from '../../src/db/schema';
import { createTestDatabase } from '../helpers/db';
import { testScheduler } from './support';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);
const later = (ms: number) => new Date(Date.now() + ms);
const token = () => randomBytes(32).toString('hex');

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function user(email: string, values: Partial<typeof users.$inferInsert> = {}) {
  const [row] = await database.db
    .insert(users)
    .values({ email, accountStatus: 'active', isEmailVerified: true, ...values })
    .returning();
  return row;
}

describe('token and account expiry', () => {
  it('the token-expiry job removes exactly what has expired, audit-logged', async () => {
    const db = database.db;
    const expiredVerify = await user('expired-verify@example.com', {
      accountStatus: 'pending_verification',
      isEmailVerified: false,
      emailVerificationToken: token(),
      emailVerificationExpires: ago(HOUR),
    });
    const freshVerify = await user('fresh-verify@example.com', {
      accountStatus: 'pending_verification',
      isEmailVerified: false,
      emailVerificationToken: token(),
      emailVerificationExpires: later(HOUR),
    });
    const expiredReset = await user('expired-reset@example.com', {
      passwordResetToken: token(),
      passwordResetExpires: ago(60_000),
    });
    const freshReset = await user('fresh-reset@example.com', {
      passwordResetToken: token(),
      passwordResetExpires: later(HOUR),
    });
    const stale = await user('never-verified@example.com', {
      accountStatus: 'pending_verification',
      isEmailVerified: false,
      createdAt: ago(8 * DAY),
      emailVerificationToken: token(),
      emailVerificationExpires: ago(7 * DAY),
    });
    const almost = await user('six-days@example.com', {
      accountStatus: 'pending_verification',
      isEmailVerified: false,
      createdAt: ago(6 * DAY),
    });
    const oldActive = await user('old-active@example.com', { createdAt: ago(400 * DAY) });
    const oldAwaitingApproval = await user('old-approval@example.com', {
      accountStatus: 'pending_approval',
      createdAt: ago(30 * DAY),
    });
    await db.insert(sessions).values([
      { sid: 'a'.repeat(64), userId: oldActive.id, expire: ago(60_000) },
      { sid: 'b'.repeat(64), userId: oldActive.id, expire: later(DAY) },
      { sid: 'c'.repeat(64), userId: freshReset.id, expire: ago(DAY) },
    ]);

    const outcome = await testScheduler(database).runNow('token-expiry');
    expect(outcome).toMatchObject({
      status: 'ok',
      message: 'Cleared 1 verification and 1 reset tokens, deleted 2 sessions and 1 unverified accounts.',
    });

    const byEmail = new Map((await db.select().from(users)).map((u) => [u.email, u]));
    expect([...byEmail.keys()].sort()).toEqual(
      [
        'expired-verify@example.com',
        'fresh-verify@example.com',
        'expired-reset@example.com',
        'fresh-reset@example.com',
        'six-days@example.com',
        'old-active@example.com',
        'old-approval@example.com',
      ].sort(),
    );
    expect(byEmail.get(expiredVerify.email)).toMatchObject({
      emailVerificationToken: null,
      emailVerificationExpires: null,
      accountStatus: 'pending_verification',
    });
    expect(byEmail.get(freshVerify.email)!.emailVerificationToken).toBe(freshVerify.emailVerificationToken);
    expect(byEmail.get(expiredReset.email)).toMatchObject({ passwordResetToken: null, passwordResetExpires: null });
    expect(byEmail.get(freshReset.email)!.passwordResetToken).toBe(freshReset.passwordResetToken);
    expect(byEmail.get(almost.email)).toBeDefined();
    expect(byEmail.get(oldAwaitingApproval.email)).toBeDefined();
    expect((await db.select({ sid: sessions.sid }).from(sessions)).map((s) => s.sid)).toEqual(['b'.repeat(64)]);

    const audit = await db.select().from(auditLog).where(eq(auditLog.action, 'user.unverified_removed'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ entityType: 'user', entityId: stale.id, actorId: null });
    expect(audit[0].details).toMatchObject({ email: 'never-verified@example.com' });

    // Running again finds nothing more to do.
    expect(await testScheduler(database).runNow('token-expiry')).toMatchObject({
      message: 'Cleared 0 verification and 0 reset tokens, deleted 0 sessions and 0 unverified accounts.',
    });
    const [{ n }] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from job_runs where job = 'token-expiry' and result = 'ok'`,
    );
    expect(n).toBe(2);
  });

  it('honours a configured number of days', async () => {
    const u = await user('three-days@example.com', {
      accountStatus: 'pending_verification',
      isEmailVerified: false,
      createdAt: ago(3 * DAY),
    });
    expect((await expireAccountsAndTokens(database.db, { unverifiedAccountDays: 7 })).unverifiedAccounts).toBe(0);
    // 2 days: this one and the six-day-old account from the test above.
    expect((await expireAccountsAndTokens(database.db, { unverifiedAccountDays: 2 })).unverifiedAccounts).toBe(2);
    expect(await database.db.select().from(users).where(eq(users.id, u.id))).toEqual([]);
  });
});
