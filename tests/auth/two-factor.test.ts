import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/tokens';
import { sessions, twoFactorRecoveryCodes, userPreferences, users } from '../../src/db/schema';
import { createTestApp, type TestContext } from '../helpers/app';
import { activate, clearThrottle, login, PASSWORD, register, sessionCookie, userByEmail } from './helpers';
import { alertsTo, currentCode, enrol, get, nextCode, passwordStep, post, wrongCode } from './two-factor-helpers';

let t: TestContext;
let n = 0;

/** A fresh active account with a password, signed in (no two-factor yet). */
async function account() {
  const email = `tf-${++n}@example.com`;
  await register(t, email);
  await activate(t.db, email);
  const res = await login(t, email, PASSWORD);
  return { email, cookie: sessionCookie(res) };
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => clearThrottle(t.db));

describe('two-factor set-up (POST /api/me/two-factor/*)', () => {
  it('gives a secret and otpauth URL, turns on only with a right code, and returns 10 recovery codes stored hashed', async () => {
    const { email, cookie } = await account();
    const setup = await post(t, '/api/me/two-factor/setup', {}, cookie);
    expect(setup.status).toBe(200);
    const { secret, otpauthUrl } = await setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Ops%20Hub:/);
    expect(new URL(otpauthUrl).searchParams.get('secret')).toBe(secret);
    const before = await userByEmail(t.db, email);
    expect(before.twoFactorSecret).toBe(secret);
    expect(before.twoFactorEnabledAt).toBeNull();

    const wrong = await post(t, '/api/me/two-factor/enable', { code: wrongCode(currentCode(secret)) }, cookie);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: 'invalid_code', message: 'Invalid code. Please try again.' });
    expect((await userByEmail(t.db, email)).twoFactorEnabledAt).toBeNull();

    const ok = await post(t, '/api/me/two-factor/enable', { code: currentCode(secret) }, cookie);
    expect(ok.status).toBe(200);
    const { recoveryCodes } = await ok.json();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const u = await userByEmail(t.db, email);
    expect(u.twoFactorEnabledAt).toBeInstanceOf(Date);
    const stored = await t.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, u.id));
    expect(stored).toHaveLength(10);
    const hashes = stored.map((r) => r.codeHash);
    for (const code of recoveryCodes) {
      expect(hashes).not.toContain(code);
      expect(hashes).toContain(hashToken(code.replace(/-/g, '')));
    }
    expect(await alertsTo(t.db, email, 'two_factor_enabled')).toHaveLength(1);

    // Set-up again while on: refused, the secret kept.
    expect((await post(t, '/api/me/two-factor/setup', {}, cookie)).status).toBe(409);
    expect((await userByEmail(t.db, email)).twoFactorSecret).toBe(secret);
  });

  it('answers 401 signed out and 400 without a code', async () => {
    expect((await post(t, '/api/me/two-factor/setup', {})).status).toBe(401);
    const { cookie } = await account();
    const res = await post(t, '/api/me/two-factor/enable', {}, cookie);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Code is required');
  });
});

describe('sign-in with two-factor (POST /api/auth/login, /api/auth/two-factor)', () => {
  it('asks for the code after the password; the waiting session can do nothing else; a code completes it', async () => {
    const { email, cookie } = await account();
    const { secret } = await enrol(t, cookie);

    const step = await passwordStep(t, email);
    expect(step.body).toEqual({ twoFactorRequired: true, message: expect.any(String) });
    expect((await get(t, '/api/knowledge-base', step.cookie)).status).toBe(401);
    expect((await get(t, '/api/auth/user', step.cookie)).status).toBe(401);
    expect((await post(t, '/api/me/two-factor/setup', {}, step.cookie)).status).toBe(401);
    const page = await get(t, '/settings', step.cookie);
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toMatch(/^\/login/);

    const done = await post(t, '/api/auth/two-factor', { code: nextCode(secret) }, step.cookie);
    expect(done.status).toBe(200);
    expect((await done.json()).user).toMatchObject({ email });
    const full = sessionCookie(done);
    expect(full).not.toBe(step.cookie);
    expect((await get(t, '/api/knowledge-base', full)).status).toBe(200);
    expect(await (await get(t, '/api/auth/user', full)).json()).toMatchObject({ email });
    // The waiting session is gone: its cookie opens nothing.
    expect((await get(t, '/api/auth/user', step.cookie)).status).toBe(401);
  });

  it('refuses the same code twice (and an older one), even in a new sign-in attempt', async () => {
    const { email, cookie } = await account();
    const { secret } = await enrol(t, cookie);
    const code = nextCode(secret);
    const first = await passwordStep(t, email);
    expect((await post(t, '/api/auth/two-factor', { code }, first.cookie)).status).toBe(200);
    const second = await passwordStep(t, email);
    const replay = await post(t, '/api/auth/two-factor', { code }, second.cookie);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ code: 'invalid_code' });
    // The code of the current step is older than the one just used.
    const older = await post(t, '/api/auth/two-factor', { code: currentCode(secret) }, second.cookie);
    expect(older.status).toBe(401);
  });

  it('takes a recovery code once, and e-mails a security alert when one is used', async () => {
    const { email, cookie } = await account();
    const { recoveryCodes } = await enrol(t, cookie);
    const first = await passwordStep(t, email);
    const ok = await post(t, '/api/auth/two-factor', { code: recoveryCodes[3].toUpperCase() }, first.cookie);
    expect(ok.status).toBe(200);
    expect(await alertsTo(t.db, email, 'recovery_code_used')).toHaveLength(1);

    const again = await passwordStep(t, email);
    const reused = await post(t, '/api/auth/two-factor', { code: recoveryCodes[3] }, again.cookie);
    expect(reused.status).toBe(401);
    expect((await post(t, '/api/auth/two-factor', { code: recoveryCodes[4] }, again.cookie)).status).toBe(200);
  });

  it('voids the attempt after 5 wrong codes: the user starts again with the password', async () => {
    const { email, cookie } = await account();
    const { secret } = await enrol(t, cookie);
    const step = await passwordStep(t, email);
    const wrong = wrongCode(nextCode(secret));
    for (let i = 1; i <= 4; i++) {
      const res = await post(t, '/api/auth/two-factor', { code: wrong }, step.cookie);
      expect(res.status).toBe(401);
      expect((await res.json()).code).toBe('invalid_code');
    }
    const fifth = await post(t, '/api/auth/two-factor', { code: wrong }, step.cookie);
    expect(fifth.status).toBe(401);
    expect(await fifth.json()).toEqual({
      code: 'two_factor_locked',
      message: 'Too many wrong codes: this sign-in was cancelled. Please sign in again with your password.',
    });
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.sid, hashToken(step.cookie.split('=')[1]))),
    ).toEqual([]);
    // Even the right code no longer finishes that attempt …
    const late = await post(t, '/api/auth/two-factor', { code: nextCode(secret) }, step.cookie);
    expect(late.status).toBe(401);
    expect((await late.json()).code).toBe('two_factor_expired');
    // … but a new one, started with the password, does.
    const fresh = await passwordStep(t, email);
    expect((await post(t, '/api/auth/two-factor', { code: nextCode(secret) }, fresh.cookie)).status).toBe(200);
  });

  it('rate-limits wrong codes per account and address across attempts (429, Retry-After)', async () => {
    const { email, cookie } = await account();
    await enrol(t, cookie);
    const ip = '203.0.113.9';
    for (let attempt = 0; attempt < 2; attempt++) {
      const step = await passwordStep(t, email, ip);
      for (let i = 0; i < 5; i++) await post(t, '/api/auth/two-factor', { code: '123456' }, step.cookie, ip);
    }
    const step = await passwordStep(t, email, ip);
    const res = await post(t, '/api/auth/two-factor', { code: '123456' }, step.cookie, ip);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
  });

  it('answers 401 when no sign-in waits for a code', async () => {
    const res = await post(t, '/api/auth/two-factor', { code: '123456' });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('two_factor_expired');
  });
});

describe('turning two-factor off (POST /api/me/two-factor/disable)', () => {
  it('needs a current code; then sign-in no longer asks for one, and a security alert is queued', async () => {
    const { email, cookie } = await account();
    const { secret } = await enrol(t, cookie);
    const wrong = await post(t, '/api/me/two-factor/disable', { code: '12345' }, cookie);
    expect(wrong.status).toBe(400);
    expect((await userByEmail(t.db, email)).twoFactorEnabledAt).not.toBeNull();

    const ok = await post(t, '/api/me/two-factor/disable', { code: nextCode(secret) }, cookie);
    expect(ok.status).toBe(200);
    const u = await userByEmail(t.db, email);
    expect(u).toMatchObject({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null });
    expect(await t.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, u.id))).toEqual([]);
    expect(await alertsTo(t.db, email, 'two_factor_disabled')).toHaveLength(1);
    const res = await login(t, email, PASSWORD);
    expect(await res.json()).toMatchObject({ message: 'Login successful' });
  });

  it('sends no alert to a user who turned Security alerts off', async () => {
    const { email, cookie } = await account();
    const u = await userByEmail(t.db, email);
    await t.db.insert(userPreferences).values({ userId: u.id, securityAlerts: false });
    await enrol(t, cookie);
    expect(await alertsTo(t.db, email, 'two_factor_enabled')).toHaveLength(0);
  });
});

describe('an admin resets a user’s two-factor sign-in', () => {
  it('POST /api/admin/users/{id}/reset-2fa: the user signs in with the password alone and may set it up again', async () => {
    const admin = await account();
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.email, admin.email));
    const { email, cookie } = await account();
    await enrol(t, cookie);
    const u = await userByEmail(t.db, email);
    const reset = await post(t, `/api/admin/users/${u.id}/reset-2fa`, {}, admin.cookie);
    expect(reset.status).toBe(200);
    const res = await login(t, email, PASSWORD);
    expect(await res.json()).toMatchObject({ message: 'Login successful' });
    const again = await enrol(t, sessionCookie(res));
    expect(again.recoveryCodes).toHaveLength(10);
  });

  it('a sign-in that waited for a code when the reset happened cannot be finished', async () => {
    const { email, cookie } = await account();
    const { secret } = await enrol(t, cookie);
    const step = await passwordStep(t, email);
    await t.db
      .update(users)
      .set({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null })
      .where(eq(users.email, email));
    const res = await post(t, '/api/auth/two-factor', { code: nextCode(secret) }, step.cookie);
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('two_factor_expired');
  });
});
