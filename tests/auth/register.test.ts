import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../../src/auth/tokens';
import { mailOutbox, users } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import {
  clearThrottle,
  lastMailTo,
  login,
  PASSWORD,
  register,
  registerAndVerify,
  tokenFrom,
  userByEmail,
} from './helpers';

/** Counts argon2 hashing of new passwords (the expensive step the limits must come before). */
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
});
afterAll(() => t.close());

describe('POST /api/auth/register validation (spec §5)', () => {
  const base = {
    firstName: 'A',
    lastName: 'B',
    email: 'v@example.com',
    password: 'longenough',
    confirmPassword: 'longenough',
  };
  const cases: [Record<string, string>, string][] = [
    [{ confirmPassword: 'different1' }, "Passwords don't match"],
    [{ password: 'short', confirmPassword: 'short' }, 'Password must be at least 8 characters'],
    [{ email: 'not-an-email' }, 'Invalid email address'],
    [{ firstName: '' }, 'First name is required'],
    [{ lastName: ' ' }, 'Last name is required'],
  ];
  for (const [change, message] of cases) {
    it(`400 "${message}"`, async () => {
      const res = await t.app.request('/api/auth/register', jsonRequest('POST', { ...base, ...change }));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.issues.map((i: { message: string }) => i.message)).toContain(message);
    });
  }
  it('puts "Passwords don\'t match" on confirmPassword', async () => {
    const res = await t.app.request(
      '/api/auth/register',
      jsonRequest('POST', { ...base, confirmPassword: 'different1' }),
    );
    expect((await res.json()).issues).toContainEqual({ path: 'confirmPassword', message: "Passwords don't match" });
  });
});

describe('registration, verification and the first admin', () => {
  it('makes the first account an admin that is active once verified', async () => {
    const res = await register(t, 'First.Admin@Example.com');
    expect(res.status).toBe(201);
    const u = await userByEmail(t.db, 'first.admin@example.com');
    expect(u).toMatchObject({ role: 'admin', accountStatus: 'pending_verification', isEmailVerified: false });
    expect(u.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const login1 = await login(t, 'first.admin@example.com', PASSWORD);
    expect(login1.status).toBe(403);
    expect(await login1.json()).toMatchObject({ code: 'email_not_verified' });

    const mail = await lastMailTo(t.db, 'first.admin@example.com');
    expect(mail.text).toContain(`${t.config.appUrl}/verify-email?token=`);
    const token = tokenFrom(mail.text, '/verify-email');
    expect(u.emailVerificationToken).toBe(hashToken(token));
    expect(u.emailVerificationToken).not.toBe(token);
    expect(u.emailVerificationExpires!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600e3);

    const verify = await t.app.request(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect(verify.status).toBe(200);
    const body = await verify.json();
    expect(body.status).toBe('active');
    expect(body.message).toBeTruthy();
    expect((await login(t, 'first.admin@example.com', PASSWORD)).status).toBe(200);
  });

  it('answers a known address exactly like a new one, keeps the account, and e-mails its owner instead', async () => {
    const before = await userByEmail(t.db, 'first.admin@example.com');
    const known = await register(t, 'FIRST.admin@example.COM', {
      firstName: 'Mallory',
      password: 'attacker pass 1',
      confirmPassword: 'attacker pass 1',
    });
    const fresh = await register(t, 'brand.new@example.com');
    expect(known.status).toBe(201);
    expect(fresh.status).toBe(201);
    expect(Object.keys(await known.json())).toEqual(Object.keys(await fresh.json()));
    expect(await userByEmail(t.db, 'first.admin@example.com')).toEqual(before);
    expect(await t.db.select().from(users).where(eq(users.email, 'first.admin@example.com'))).toHaveLength(1);
    const mail = await lastMailTo(t.db, 'first.admin@example.com');
    expect(mail.subject).toBe('Someone tried to register with your email address on Ops Hub');
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(`${t.config.appUrl}/login`);
      expect(body).toContain(`${t.config.appUrl}/forgot-password`);
    }
    expect(mail.text).not.toContain('verify-email');
    // Repeats the same day do not send another message.
    await register(t, 'first.admin@example.com');
    const notices = await t.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, 'first.admin@example.com'), like(mailOutbox.dedupeKey, 'register-attempt:%')));
    expect(notices).toHaveLength(1);
  });

  it('spends the same password hashing on a known address as on a new one', async () => {
    await clearThrottle(t.db);
    const timed = async (email: string) => {
      const start = performance.now();
      expect((await register(t, email)).status).toBe(201);
      return performance.now() - start;
    };
    const knownRuns: number[] = [];
    const newRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      knownRuns.push(await timed('first.admin@example.com'));
      newRuns.push(await timed(`timing${i}@example.com`));
    }
    await clearThrottle(t.db);
    const known = Math.min(...knownRuns);
    const fresh = Math.min(...newRuns);
    expect(known).toBeGreaterThan(fresh / 3);
    expect(known).toBeLessThan(fresh * 3);
  });

  it('puts later accounts in pending_approval after verification and e-mails every admin', async () => {
    const result = await registerAndVerify(t, 'second@example.com');
    expect(result.status).toBe('pending_approval');
    const u = await userByEmail(t.db, 'second@example.com');
    expect(u).toMatchObject({
      role: 'editor',
      accountStatus: 'pending_approval',
      isEmailVerified: true,
      emailVerificationToken: null,
    });
    const adminMail = await lastMailTo(t.db, 'first.admin@example.com');
    expect(adminMail.subject).toContain('second@example.com');
    expect(adminMail.text).toContain(`${t.config.appUrl}/admin/approval`);
    expect(adminMail.html).toContain(`${t.config.appUrl}/admin/approval`);
    const res = await login(t, 'second@example.com', PASSWORD);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: 'pending_approval',
      message: 'Your account is pending admin approval. Please wait for approval.',
    });
  });

  it('answers 403 account_rejected for a rejected account', async () => {
    await t.db.update(users).set({ accountStatus: 'rejected' }).where(eq(users.email, 'second@example.com'));
    const res = await login(t, 'second@example.com', PASSWORD);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('account_rejected');
  });

  it('verification tokens are single use', async () => {
    await register(t, 'once@example.com');
    const token = tokenFrom((await lastMailTo(t.db, 'once@example.com')).text, '/verify-email');
    expect((await t.app.request(`/api/auth/verify-email?token=${token}`)).status).toBe(200);
    const again = await t.app.request(`/api/auth/verify-email?token=${token}`);
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe('This verification link is invalid or has expired.');
  });

  it('verification tokens expire after 24 hours', async () => {
    await register(t, 'late@example.com');
    const token = tokenFrom((await lastMailTo(t.db, 'late@example.com')).text, '/verify-email');
    await t.db
      .update(users)
      .set({ emailVerificationExpires: new Date(Date.now() - 1000) })
      .where(eq(users.email, 'late@example.com'));
    const res = await t.app.request(`/api/auth/verify-email?token=${token}`);
    expect(res.status).toBe(400);
    expect((await userByEmail(t.db, 'late@example.com')).isEmailVerified).toBe(false);
  });

  it('refuses a missing or unknown token', async () => {
    expect((await t.app.request('/api/auth/verify-email')).status).toBe(400);
    expect((await t.app.request('/api/auth/verify-email?token=nope')).status).toBe(400);
  });

  it('writes the verification e-mail with text and HTML bodies, product name and link in both', async () => {
    const mail = await lastMailTo(t.db, 'late@example.com');
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('Ops Hub');
      expect(body).toContain(`${t.config.appUrl}/verify-email?token=`);
    }
  });
});

describe('first account race', () => {
  it('makes exactly one admin when several accounts register at once on an empty database', async () => {
    const fresh = await createTestApp();
    try {
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => register(fresh, `race${i}@example.com`)));
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      const admins = await fresh.db.select().from(users).where(eq(users.role, 'admin'));
      expect(admins).toHaveLength(1);
      expect(await fresh.db.select().from(mailOutbox)).toHaveLength(5);
    } finally {
      await fresh.close();
    }
  });
});

describe('registration limits', () => {
  it('allows 5 registrations per e-mail address and 20 per client address an hour (429, Retry-After), before any hashing', async () => {
    const fresh = await createTestApp();
    try {
      const from = (email: string, ip: string) =>
        fresh.app.request(
          '/api/auth/register',
          jsonRequest('POST', { firstName: 'A', lastName: 'B', email, password: PASSWORD, confirmPassword: PASSWORD }),
          { incoming: { socket: { remoteAddress: ip } } },
        );
      for (let i = 0; i < 5; i++) expect((await from('same@example.com', `192.0.2.${i}`)).status).toBe(201);
      const hashesBefore = argon.hashes;
      const sixth = await from('same@example.com', '192.0.2.50');
      expect(sixth.status).toBe(429);
      expect(argon.hashes).toBe(hashesBefore);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3500);
      for (let i = 0; i < 20; i++) expect((await from(`spray${i}@example.com`, '198.51.100.1')).status).toBe(201);
      expect((await from('spray-last@example.com', '198.51.100.1')).status).toBe(429);
      expect((await from('spray-last@example.com', '198.51.100.2')).status).toBe(201);
    } finally {
      await fresh.close();
    }
  });
});
