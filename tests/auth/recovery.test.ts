import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../../src/auth/tokens';
import { mailOutbox, sessions, userPreferences, users } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import {
  activate,
  clearThrottle,
  lastMailTo,
  login,
  PASSWORD,
  register,
  sessionCookie,
  tokenFrom,
  userByEmail,
} from './helpers';

/** Counts argon2 hashing of new passwords (the expensive step the cheap checks must come before). */
const argon = vi.hoisted(() => ({ hashes: 0 }));
vi.mock('../../src/auth/password', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/auth/password')>();
  return {
    ...real,
    hashPassword: (plain: string) => {
      argon.hashes++;
      return real.hashPassword(plain);
    },
  };
});

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  await register(t, 'reset@example.com');
  await activate(t.db, 'reset@example.com');
});
afterAll(() => t.close());
beforeEach(() => clearThrottle(t.db));

const forgot = (email: string) => t.app.request('/api/auth/forgot-password', jsonRequest('POST', { email }));
const reset = (body: Record<string, string>) => t.app.request('/api/auth/reset-password', jsonRequest('POST', body));
const resetAlerts = () =>
  t.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, 'reset@example.com'), like(mailOutbox.dedupeKey, 'security:password_reset:%')));
const outboxCount = async () => (await t.db.select({ n: count() }).from(mailOutbox))[0].n;

async function requestToken(email = 'reset@example.com') {
  await forgot(email);
  return tokenFrom((await lastMailTo(t.db, email)).text, '/reset-password');
}

describe('forgot password', () => {
  it('answers the same for known and unknown addresses, and e-mails only the known one', async () => {
    const before = await outboxCount();
    const unknown = await forgot('ghost@example.com');
    expect(await outboxCount()).toBe(before);
    const known = await forgot('reset@example.com');
    expect(known.status).toBe(unknown.status);
    expect(await known.json()).toEqual(await unknown.json());
    expect(await outboxCount()).toBe(before + 1);
    const mail = await lastMailTo(t.db, 'reset@example.com');
    expect(mail.text).toContain(`${t.config.appUrl}/reset-password?token=`);
    expect(mail.html).toContain(`${t.config.appUrl}/reset-password?token=`);
    expect(mail.text).toContain('Ops Hub');
  });

  it('stores only the sha256 of the reset token, valid for 1 hour', async () => {
    const token = await requestToken();
    const u = await userByEmail(t.db, 'reset@example.com');
    expect(u.passwordResetToken).toBe(hashToken(token));
    const ttl = u.passwordResetExpires!.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60e3);
    expect(ttl).toBeLessThanOrEqual(60 * 60e3);
  });

  it('validates the e-mail', async () => {
    expect((await forgot('nope')).status).toBe(400);
  });
});

describe('reset password', () => {
  it('validates with the spec messages', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ token: '', password: 'longenough', confirmPassword: 'longenough' }, 'Reset token is required'],
      [{ token: 'x', password: 'short', confirmPassword: 'short' }, 'Password must be at least 8 characters'],
      [{ token: 'x', password: 'longenough', confirmPassword: 'different1' }, "Passwords don't match"],
    ];
    for (const [body, message] of cases) {
      const res = await reset(body);
      expect(res.status).toBe(400);
      expect((await res.json()).issues.map((i: { message: string }) => i.message)).toContain(message);
    }
  });

  it('sets the new password, revokes every session, and works once', async () => {
    await clearThrottle(t.db);
    const cookie = sessionCookie(await login(t, 'reset@example.com', PASSWORD));
    const token = await requestToken();
    const res = await reset({ token, password: 'brand new secret', confirmPassword: 'brand new secret' });
    expect(res.status).toBe(200);
    expect((await res.json()).message).toMatch(/reset/);
    const u = await userByEmail(t.db, 'reset@example.com');
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(0);
    expect((await t.app.request('/api/auth/user', { headers: { Cookie: cookie } })).status).toBe(401);
    expect((await login(t, 'reset@example.com', PASSWORD)).status).toBe(401);
    expect((await login(t, 'reset@example.com', 'brand new secret')).status).toBe(200);
    const again = await reset({ token, password: 'another secret', confirmPassword: 'another secret' });
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe('This password reset link is invalid or has expired.');
    expect(await resetAlerts()).toHaveLength(1);
  });

  it('sends a security alert: reset, when (Sydney by default), from where, and what to do; none with alerts off', async () => {
    const alertsBefore = (await resetAlerts()).length;
    const token = await requestToken();
    const res = await t.app.request(
      '/api/auth/reset-password',
      {
        ...jsonRequest('POST', { token, password: 'alerted secret', confirmPassword: 'alerted secret' }),
        headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/json', 'User-Agent': 'Safari/19' },
      },
      { incoming: { socket: { remoteAddress: '192.0.2.44' } } },
    );
    expect(res.status).toBe(200);
    const alerts = await resetAlerts();
    expect(alerts).toHaveLength(alertsBefore + 1);
    const mail = await lastMailTo(t.db, 'reset@example.com');
    expect(mail.subject).toBe('Your Ops Hub password was reset');
    expect(mail.text).toContain('reset with an e-mailed reset link; every session was signed out.');
    expect(mail.text).toContain('(Australia/Sydney).');
    expect(mail.text).toContain('From: IP address 192.0.2.44, browser "Safari/19".');
    expect(mail.text).toContain(`${t.config.appUrl}/forgot-password`);

    const u = await userByEmail(t.db, 'reset@example.com');
    await t.db.insert(userPreferences).values({ userId: u.id, securityAlerts: false });
    const next = await requestToken();
    expect((await reset({ token: next, password: 'quiet secret 1', confirmPassword: 'quiet secret 1' })).status).toBe(
      200,
    );
    expect(await resetAlerts()).toHaveLength(alertsBefore + 1);
    await t.db.delete(userPreferences).where(eq(userPreferences.userId, u.id));
  });

  it('verifies a never-verified account: its owner, locked out by a lost link or a squatter, finishes with a reset', async () => {
    await register(t, 'lost-link@example.com'); // never verified; the verification link is lost
    await register(t, 'lost-link@example.com', { password: 'squatter guess 1', confirmPassword: 'squatter guess 1' }); // answered like a new one
    expect((await userByEmail(t.db, 'lost-link@example.com')).accountStatus).toBe('pending_verification');
    const token = await requestToken('lost-link@example.com');
    expect((await reset({ token, password: 'owner secret 12', confirmPassword: 'owner secret 12' })).status).toBe(200);
    const u = await userByEmail(t.db, 'lost-link@example.com');
    expect(u).toMatchObject({ isEmailVerified: true, emailVerificationToken: null, accountStatus: 'pending_approval' });
    const approvalRequests = await t.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.dedupeKey, `approval-request:${u.id}:%`));
    expect(approvalRequests.length).toBeGreaterThan(0);
    // The registration's password is gone; the owner's new one waits for approval like any account.
    const res = await login(t, 'lost-link@example.com', PASSWORD);
    expect(res.status).toBe(401);
    expect((await login(t, 'lost-link@example.com', 'owner secret 12')).status).toBe(403);
  });

  it('refuses an expired token (older than 1 hour)', async () => {
    const token = await requestToken();
    await t.db
      .update(users)
      .set({ passwordResetExpires: new Date(Date.now() - 1000) })
      .where(eq(users.email, 'reset@example.com'));
    expect((await reset({ token, password: 'brand new secret', confirmPassword: 'brand new secret' })).status).toBe(
      400,
    );
  });

  it('works through the pages without JavaScript', async () => {
    const form = (body: Record<string, string>) => ({
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body),
    });
    const sent = await t.app.request('/forgot-password', form({ email: 'reset@example.com' }));
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe('/forgot-password?sent=1');
    expect(await (await t.app.request('/forgot-password?sent=1')).text()).toContain('Check Your Email');
    const bad = await t.app.request('/forgot-password', form({ email: 'nope' }));
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Invalid email address');

    const token = tokenFrom((await lastMailTo(t.db, 'reset@example.com')).text, '/reset-password');
    const page = await (await t.app.request(`/reset-password?token=${token}`)).text();
    expect(page).toContain('Choose a new password');
    expect(await (await t.app.request('/reset-password')).text()).toContain('Invalid Link');
    const mismatch = await t.app.request(
      '/reset-password',
      form({ token, password: 'page secret 1', confirmPassword: 'page secret 2' }),
    );
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain('Passwords don&#x27;t match');
    const done = await t.app.request(
      '/reset-password',
      form({ token, password: 'page secret 1', confirmPassword: 'page secret 1' }),
    );
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toMatch(/^\/login\?success=password_reset&message=/);
    const loginPage = await (await t.app.request(done.headers.get('location')!)).text();
    expect(loginPage).toContain('Your password has been reset. Please sign in with your new password.');
    const reused = await t.app.request(
      '/reset-password',
      form({ token, password: 'page secret 3', confirmPassword: 'page secret 3' }),
    );
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('This password reset link is invalid or has expired.');
  });
});

describe('limits (per e-mail and per client address, in PostgreSQL)', () => {
  const from = (path: string, body: Record<string, string>, ip: string) =>
    t.app.request(path, jsonRequest('POST', body), { incoming: { socket: { remoteAddress: ip } } });
  const resetMails = async () =>
    (
      await t.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, 'reset@example.com'), like(mailOutbox.dedupeKey, 'reset:%')))
    ).length;

  it('sends at most 3 reset e-mails to one address in 15 minutes, from any client address', async () => {
    const before = await resetMails();
    const statuses = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await from('/api/auth/forgot-password', { email: 'reset@example.com' }, `192.0.2.${i}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    expect(await resetMails()).toBe(before + 3);
  });

  it('limits one client address to 20 reset requests an hour, known addresses or not', async () => {
    for (let i = 0; i < 20; i++)
      expect((await from('/api/auth/forgot-password', { email: `ghost${i}@example.com` }, '198.51.100.3')).status).toBe(
        200,
      );
    const res = await from('/api/auth/forgot-password', { email: 'reset@example.com' }, '198.51.100.3');
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ code: 'throttled' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500);
  });

  it('looks a reset token up before hashing the new password, and limits reset attempts per client address', async () => {
    const hashesBefore = argon.hashes;
    const body = { token: 'bogus-token', password: 'long enough 1', confirmPassword: 'long enough 1' };
    for (let i = 0; i < 10; i++)
      expect((await from('/api/auth/reset-password', body, '198.51.100.4')).status).toBe(400);
    expect(argon.hashes).toBe(hashesBefore);
    const res = await from('/api/auth/reset-password', body, '198.51.100.4');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await from('/api/auth/reset-password', body, '198.51.100.5')).status).toBe(400);
  });
});
