import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOGIN_PER_ACCOUNT, LOGIN_PER_ADDRESS, LOGIN_WINDOW_SECONDS, loginKeys } from '../../src/auth/limits';
import { rateLimitHits, sessions } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { activate, clearThrottle, login, PASSWORD, register, sessionCookie } from './helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  await register(t, 'admin@example.com');
  await activate(t.db, 'admin@example.com');
  await register(t, 'user@example.com');
  await activate(t.db, 'user@example.com');
});
afterAll(() => t.close());
beforeEach(() => clearThrottle(t.db));

describe('POST /api/auth/login', () => {
  it('signs in with an HttpOnly, SameSite=Lax session cookie and /api/auth/user answers the user', async () => {
    const res = await login(t, 'USER@example.com', PASSWORD);
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    const me = await t.app.request('/api/auth/user', { headers: { Cookie: sessionCookie(res) } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'user@example.com', firstName: 'Ada', role: 'editor' });
  });

  it('/api/auth/user answers 401 when signed out', async () => {
    expect((await t.app.request('/api/auth/user')).status).toBe(401);
  });

  it('answers the same 401 for a wrong password and an unknown e-mail, in similar time', async () => {
    const attempt = async (email: string) => {
      const start = performance.now();
      const res = await login(t, email, 'wrong-password', `192.0.2.${Math.floor(Math.random() * 250)}`);
      return { ms: performance.now() - start, status: res.status, body: await res.json() };
    };
    // Interleaved tries, fastest of each: load from other processes hits both sides alike.
    await attempt('warmup@example.com');
    type Run = Awaited<ReturnType<typeof attempt>>;
    const wrongRuns: Run[] = [];
    const unknownRuns: Run[] = [];
    for (let i = 0; i < 6; i++) {
      wrongRuns.push(await attempt('user@example.com'));
      unknownRuns.push(await attempt('nobody@example.com'));
    }
    const fastest = (runs: Run[]) => ({ ...runs[0], ms: Math.min(...runs.map((r) => r.ms)) });
    const wrong = fastest(wrongRuns);
    const unknown = fastest(unknownRuns);
    await clearThrottle(t.db);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.message).toBe('Invalid email or password.');
    // A dummy argon2 hash is checked for unknown e-mails: both cost one argon2 verification.
    expect(unknown.ms).toBeGreaterThan(wrong.ms / 3);
    expect(unknown.ms).toBeLessThan(wrong.ms * 3);
  });

  it('validates with the spec messages', async () => {
    const res = await t.app.request('/api/auth/login', jsonRequest('POST', { email: 'nope', password: '' }));
    expect(res.status).toBe(400);
    const messages = (await res.json()).issues.map((i: { message: string }) => i.message);
    expect(messages).toEqual(expect.arrayContaining(['Invalid email address', 'Password is required']));
  });

  it('refuses a cross-site POST', async () => {
    const res = await t.app.request('/api/auth/login', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'user@example.com', password: PASSWORD }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('csrf');
  });

  it('sets a Secure cookie when APP_URL is https', async () => {
    const secure = await createTestApp({ APP_URL: 'https://ops.example.com' });
    try {
      await secure.app.request('/api/auth/register', {
        method: 'POST',
        headers: { Origin: 'https://ops.example.com', 'Content-Type': 'application/json' },
        body: JSON.stringify({
          firstName: 'S',
          lastName: 'S',
          email: 's@example.com',
          password: PASSWORD,
          confirmPassword: PASSWORD,
        }),
      });
      await activate(secure.db, 's@example.com');
      const res = await secure.app.request('/api/auth/login', {
        method: 'POST',
        headers: { Origin: 'https://ops.example.com', 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 's@example.com', password: PASSWORD }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/^__Host-ops_session=.*Secure/i);
    } finally {
      await secure.close();
    }
  });
});

/** Counts `n` sign-in failures under a throttle key directly (to reach a ceiling without 100 argon2 checks). */
async function seedFailures(key: string, n: number) {
  await t.db
    .insert(rateLimitHits)
    .values(Array.from({ length: n }, () => ({ key, expiresAt: new Date(Date.now() + LOGIN_WINDOW_SECONDS * 1000) })));
}

describe('throttling (state in PostgreSQL)', () => {
  it('throttles an account from one address after 10 failures, even with the right password, with Retry-After', async () => {
    for (let i = 0; i < 10; i++) expect((await login(t, 'user@example.com', 'bad', '192.0.2.1')).status).toBe(401);
    const res = await login(t, 'user@example.com', PASSWORD, '192.0.2.1');
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({
      code: 'throttled',
      message: 'Too many failed sign-in attempts. Please try again later.',
    });
    const retry = Number(res.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(800);
    expect(retry).toBeLessThanOrEqual(900);
    // The same account from another address, and another account from the same address, are unaffected.
    expect((await login(t, 'user@example.com', PASSWORD, '192.0.2.2')).status).toBe(200);
    expect((await login(t, 'admin@example.com', PASSWORD, '192.0.2.1')).status).toBe(200);
  });

  it('10 wrong passwords from 10 addresses do not lock the real user out', async () => {
    for (let i = 0; i < 10; i++) expect((await login(t, 'admin@example.com', 'bad', `192.0.2.${i}`)).status).toBe(401);
    expect((await login(t, 'admin@example.com', PASSWORD, '192.0.2.200')).status).toBe(200);
  });

  it('failures against other accounts from one address do not lock out the users behind it', async () => {
    for (let i = 0; i < 10; i++)
      expect((await login(t, `probe${i}@example.com`, 'bad', '203.0.113.9')).status).toBe(401);
    expect((await login(t, 'user@example.com', PASSWORD, '203.0.113.9')).status).toBe(200);
  });

  it('has much higher ceilings per account (any address) and per address (any account)', async () => {
    await seedFailures(loginKeys('user@example.com', '').account, LOGIN_PER_ACCOUNT);
    expect((await login(t, 'user@example.com', PASSWORD, '198.51.100.50')).status).toBe(429);
    expect((await login(t, 'admin@example.com', PASSWORD, '198.51.100.50')).status).toBe(200);
    await clearThrottle(t.db);
    await seedFailures(loginKeys('', '198.51.100.60').address, LOGIN_PER_ADDRESS);
    expect((await login(t, 'admin@example.com', PASSWORD, '198.51.100.60')).status).toBe(429);
    expect((await login(t, 'admin@example.com', PASSWORD, '198.51.100.61')).status).toBe(200);
  });

  it('a successful sign-in clears the failures of its account from that address and of the address', async () => {
    for (let i = 0; i < 9; i++) await login(t, 'user@example.com', 'bad', '198.18.0.1');
    await seedFailures(loginKeys('', '198.18.0.1').address, LOGIN_PER_ADDRESS - 10);
    expect((await login(t, 'user@example.com', PASSWORD, '198.18.0.1')).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login(t, 'user@example.com', 'bad', '198.18.0.1')).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await login(t, `other${i}@example.com`, 'bad', '198.18.0.1')).status).toBe(401);
  });

  it('counts a right password for an inactive account as no failure', async () => {
    await register(t, 'waiting@example.com');
    for (let i = 0; i < 12; i++)
      expect((await login(t, 'waiting@example.com', PASSWORD, '198.18.5.1')).status).toBe(403);
  });

  it('lets the account in again once the failures leave the 15-minute window', async () => {
    for (let i = 0; i < 10; i++) await login(t, 'user@example.com', 'bad', '192.0.2.9');
    expect((await login(t, 'user@example.com', PASSWORD, '192.0.2.9')).status).toBe(429);
    await t.db.update(rateLimitHits).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await login(t, 'user@example.com', PASSWORD, '192.0.2.9')).status).toBe(200);
  });

  it('holds across two app instances on the same database', async () => {
    const second = await createTestApp({}, t.database);
    for (let i = 0; i < 5; i++) await login(t, 'user@example.com', 'bad', '100.64.0.1');
    for (let i = 0; i < 5; i++) await login(second, 'user@example.com', 'bad', '100.64.0.1');
    expect((await login(t, 'user@example.com', PASSWORD, '100.64.0.1')).status).toBe(429);
    expect((await login(second, 'user@example.com', PASSWORD, '100.64.0.1')).status).toBe(429);
  });

  it('checks at most 10 passwords when 30 wrong ones arrive at once (check and count are atomic)', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, () => login(t, 'user@example.com', 'bad', '100.64.9.9')),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });
});

describe('client address behind a reverse proxy (TRUSTED_PROXIES)', () => {
  const viaProxy = (ctx: TestContext, password: string, forwardedFor: string, socket = '127.0.0.1') =>
    ctx.app.request(
      '/api/auth/login',
      {
        ...jsonRequest('POST', { email: 'user@example.com', password }),
        headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
      },
      { incoming: { socket: { remoteAddress: socket } } },
    );

  it('takes the client from X-Forwarded-For when the request came through a trusted proxy', async () => {
    const proxied = await createTestApp({ TRUSTED_PROXIES: '127.0.0.1/32, 10.0.0.0/8' }, t.database);
    for (let i = 0; i < 10; i++)
      expect((await viaProxy(proxied, 'bad', '192.0.2.77, 10.1.2.3', '::ffff:127.0.0.1')).status).toBe(401);
    expect((await viaProxy(proxied, PASSWORD, '192.0.2.77')).status).toBe(429);
    // Another client behind the same proxy is not throttled.
    expect((await viaProxy(proxied, PASSWORD, '192.0.2.78')).status).toBe(200);
  });

  it('ignores X-Forwarded-For from an untrusted peer, and without TRUSTED_PROXIES', async () => {
    const proxied = await createTestApp({ TRUSTED_PROXIES: '1' }, t.database);
    for (let i = 0; i < 10; i++) await viaProxy(t, 'bad', `192.0.2.${i}`, '198.51.100.80');
    expect((await viaProxy(t, PASSWORD, '192.0.2.99', '198.51.100.80')).status).toBe(429);
    const listed = await createTestApp({ TRUSTED_PROXIES: '203.0.113.250' }, t.database);
    expect((await viaProxy(listed, PASSWORD, '192.0.2.99', '198.51.100.80')).status).toBe(429);
    // With one trusted hop, the spoofed entries before the proxy's own are ignored too.
    for (let i = 0; i < 10; i++) await viaProxy(proxied, 'bad', `203.0.113.${i}, 192.0.2.55`);
    expect((await viaProxy(proxied, PASSWORD, '203.0.113.200, 192.0.2.55')).status).toBe(429);
  });
});

describe('sign-out and session revocation', () => {
  it('GET /api/logout from our own pages revokes the session and redirects to /', async () => {
    const fromOurPages: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'same-origin' },
      { Referer: `${TEST_ORIGIN}/settings` },
      { Origin: TEST_ORIGIN },
    ];
    for (const headers of fromOurPages) {
      const cookie = sessionCookie(await login(t, 'user@example.com', PASSWORD));
      const res = await t.app.request('/api/logout', { headers: { Cookie: cookie, ...headers } });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
      expect(res.headers.get('set-cookie')).toMatch(/ops_session=;/);
      expect((await t.app.request('/api/auth/user', { headers: { Cookie: cookie } })).status).toBe(401);
    }
  });

  it('a cross-site GET /api/logout does not sign out: it shows a "Sign out" button that posts', async () => {
    const cookie = sessionCookie(await login(t, 'user@example.com', PASSWORD));
    const elsewhere: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site', Referer: 'https://evil.example/' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Referer: 'https://evil.example/page' },
      {},
    ];
    for (const headers of elsewhere) {
      const res = await t.app.request('/api/logout', { headers: { Cookie: cookie, ...headers } });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toBeNull();
      const html = await res.text();
      expect(html).toContain('<form class="form" action="/api/auth/logout" method="post">');
      expect(html).toContain('Sign out</button>');
      expect((await t.app.request('/api/auth/user', { headers: { Cookie: cookie } })).status).toBe(200);
    }
    // The button's same-origin POST signs out.
    const res = await t.app.request('/api/auth/logout', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, Cookie: cookie },
    });
    expect(res.status).toBe(303);
    expect((await t.app.request('/api/auth/user', { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it('POST /api/auth/logout revokes only that session', async () => {
    const a = sessionCookie(await login(t, 'user@example.com', PASSWORD));
    const b = sessionCookie(await login(t, 'user@example.com', PASSWORD));
    const res = await t.app.request('/api/auth/logout', jsonRequest('POST', undefined, a));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect((await t.app.request('/api/auth/user', { headers: { Cookie: a } })).status).toBe(401);
    expect((await t.app.request('/api/auth/user', { headers: { Cookie: b } })).status).toBe(200);
  });

  it('stores sessions hashed: the cookie value is not in the table', async () => {
    const cookie = sessionCookie(await login(t, 'user@example.com', PASSWORD));
    const token = cookie.split('=')[1];
    expect(await t.db.select().from(sessions).where(eq(sessions.sid, token))).toHaveLength(0);
  });

  it('refuses a cross-site logout POST', async () => {
    const cookie = sessionCookie(await login(t, 'user@example.com', PASSWORD));
    const res = await t.app.request('/api/auth/logout', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', Cookie: cookie },
    });
    expect(res.status).toBe(403);
    expect((await t.app.request('/api/auth/user', { headers: { Cookie: cookie } })).status).toBe(200);
  });
});

describe('deep links', () => {
  it('sends signed-out visitors of an app page to /login?next=…, and back there after sign-in', async () => {
    const res = await t.app.request('/admin/approval?x=1');
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location).toBe('/login?next=%2Fadmin%2Fapproval%3Fx%3D1');
    const page = await t.app.request(location);
    expect(await page.text()).toContain('name="next" value="/admin/approval?x=1"');
    const form = new URLSearchParams({ email: 'admin@example.com', password: PASSWORD, next: '/admin/approval?x=1' });
    const signIn = await t.app.request('/login', {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/admin/approval?x=1');
  });

  for (const evil of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)']) {
    it(`never redirects off-site after sign-in (next=${evil})`, async () => {
      const form = new URLSearchParams({ email: 'admin@example.com', password: PASSWORD, next: evil });
      const res = await t.app.request('/login', {
        method: 'POST',
        headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
    });
  }
});
