import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appSettings, users } from '../../src/db/schema';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { activate, clearThrottle, login, PASSWORD, register, sessionCookie } from './helpers';
import { authorizeAtProvider, startOidcProvider } from './oidc-provider';
import { currentCode, enrol, nextCode, wrongCode } from './two-factor-helpers';

let t: TestContext;
let op: Awaited<ReturnType<typeof startOidcProvider>>;
let n = 0;

const form = (path: string, body: Record<string, string>, cookie?: string) =>
  t.app.request(path, {
    method: 'POST',
    headers: {
      Origin: TEST_ORIGIN,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(body),
  });
const page = (path: string, cookie?: string) => t.app.request(path, { headers: cookie ? { Cookie: cookie } : {} });

/** An active account with a password and two-factor on; its e-mail and secret. */
async function enrolled() {
  const email = `page-${++n}@example.com`;
  await register(t, email);
  await activate(t.db, email);
  const { secret } = await enrol(t, sessionCookie(await login(t, email, PASSWORD)));
  return { email, secret };
}

const setRules = (rules: { requireTwoFactor?: boolean; twoFactorForExternal?: boolean }) =>
  t.db
    .insert(appSettings)
    .values({ id: 1, ...rules })
    .onConflictDoUpdate({ target: appSettings.id, set: rules });

beforeAll(async () => {
  op = await startOidcProvider([`${TEST_ORIGIN}/auth/google/callback`]);
  t = await createTestApp({
    GOOGLE_CLIENT_ID: 'ops-hub',
    GOOGLE_CLIENT_SECRET: 'ops-hub-secret',
    GOOGLE_ISSUER: op.issuer,
  });
});
afterAll(async () => {
  await t?.close();
  await op?.close();
});
beforeEach(async () => {
  await clearThrottle(t.db);
  await setRules({ requireTwoFactor: false, twoFactorForExternal: true });
});

describe('the HTML sign-in asks for the code after the password', () => {
  it('/login → /login/two-factor (one numeric one-time-code field) → next', async () => {
    const { email, secret } = await enrolled();
    const res = await form('/login', { email, password: PASSWORD, next: '/servers' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login/two-factor?next=%2Fservers');
    const cookie = sessionCookie(res);

    const step = await page('/login/two-factor?next=%2Fservers', cookie);
    expect(step.status).toBe(200);
    const html = await step.text();
    expect(html).toMatch(/<input[^>]*autocomplete="one-time-code"/i);
    expect(html).toMatch(/<input[^>]*inputmode="numeric"/i);
    expect(html.match(/<input[^>]*name="code"/g)).toHaveLength(1);
    expect(html).toContain('name="next" value="/servers"');
    // Nothing else opens with the waiting session.
    expect((await page('/settings', cookie)).headers.get('location')).toMatch(/^\/login/);

    const wrong = await form('/login/two-factor', { code: wrongCode(nextCode(secret)), next: '/servers' }, cookie);
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Invalid code. Please try again.');

    const done = await form('/login/two-factor', { code: nextCode(secret), next: '/servers' }, cookie);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/servers');
    expect((await page('/settings', sessionCookie(done))).status).toBe(200);
  });

  it('sends a visitor without a waiting sign-in back to /login', async () => {
    const res = await page('/login/two-factor');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login');
  });

  it('after 5 wrong codes goes back to /login with the reason', async () => {
    const { email, secret } = await enrolled();
    const cookie = sessionCookie(await form('/login', { email, password: PASSWORD }));
    let res: Response | undefined;
    for (let i = 0; i < 5; i++) res = await form('/login/two-factor', { code: wrongCode(nextCode(secret)) }, cookie);
    expect(res!.status).toBe(303);
    expect(res!.headers.get('location')).toBe('/login?error=two_factor_locked');
    const banner = await (await page('/login?error=two_factor_locked')).text();
    expect(banner).toContain(
      'Too many wrong codes: this sign-in was cancelled. Please sign in again with your password.',
    );
  });

  it('Cancel ends the waiting sign-in', async () => {
    const { email, secret } = await enrolled();
    const cookie = sessionCookie(await form('/login', { email, password: PASSWORD }));
    const res = await form('/login/two-factor/cancel', {}, cookie);
    expect(res.headers.get('location')).toBe('/login');
    const late = await form('/login/two-factor', { code: nextCode(secret) }, cookie);
    expect(late.headers.get('location')).toBe('/login?error=two_factor_expired');
  });

  it('sends a user the workspace requires two-factor of to its set-up', async () => {
    const email = `page-${++n}@example.com`;
    await register(t, email);
    await activate(t.db, email);
    await setRules({ requireTwoFactor: true });
    const res = await form('/login', { email, password: PASSWORD });
    expect(res.headers.get('location')).toBe('/settings/two-factor');
    const cookie = sessionCookie(res);
    const setup = await page('/settings/two-factor', cookie);
    expect(setup.status).toBe(200);
    expect(await setup.text()).toContain('Two-factor sign-in is required in this workspace. Set it up to continue.');
    // Other forms are refused until it is on.
    expect((await form('/settings/profile', { firstName: 'A', lastName: 'B' }, cookie)).status).toBe(403);
  });
});

describe('Settings › Security › Two-factor sign-in (no JavaScript)', () => {
  it('sets up with the QR code and key, shows the recovery codes once, and turns off with a code', async () => {
    const email = `page-${++n}@example.com`;
    await register(t, email);
    await activate(t.db, email);
    const cookie = sessionCookie(await login(t, email, PASSWORD));

    const settings = await (await page('/settings', cookie)).text();
    expect(settings).toContain('id="two-factor"');
    expect(settings).toContain('action="/settings/two-factor/setup"');

    const started = await form('/settings/two-factor/setup', {}, cookie);
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toBe('/settings/two-factor');
    const setup = await (await page('/settings/two-factor', cookie)).text();
    const section = setup.slice(setup.indexOf('id="two-factor"'));
    expect(section).toMatch(/<svg[^>]*class="two-factor__qr"[^>]*role="img"/);
    expect(section).toMatch(/<path d="M[^"]+"/);
    const secret = /<code id="two-factor-secret">([A-Z2-7]+)<\/code>/.exec(section)![1];

    const bad = await form('/settings/two-factor/enable', { code: wrongCode(currentCode(secret)) }, cookie);
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Invalid code. Please try again.');

    const on = await form('/settings/two-factor/enable', { code: currentCode(secret) }, cookie);
    expect(on.status).toBe(200);
    const shown = await on.text();
    expect(shown.match(/<li><code>[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}<\/code><\/li>/g)).toHaveLength(10);
    // Shown once: the page does not show them again.
    const later = await (await page('/settings', cookie)).text();
    expect(later).not.toMatch(/<li><code>[a-z2-7]{4}-/);
    expect(later).toContain('10 recovery codes left.');
    expect(later).toContain('action="/settings/two-factor/disable"');

    const keep = await form('/settings/two-factor/disable', { code: '000' }, cookie);
    expect(keep.status).toBe(422);
    const off = await form('/settings/two-factor/disable', { code: nextCode(secret) }, cookie);
    expect(off.status).toBe(303);
    expect(off.headers.get('location')).toBe('/settings/two-factor?updated=off');
    expect(await (await page('/settings/two-factor?updated=off', cookie)).text()).toContain(
      'Two-factor sign-in is off.',
    );
  });
});

describe('Google/OIDC sign-in asks for the code too', () => {
  /** Google sign-in of a provider account linked by its verified e-mail; the callback's answer. */
  async function googleSignIn(accountId: string) {
    const start = await t.app.request('/auth/google');
    const stateCookie = start.headers.get('set-cookie')!.split(';')[0];
    const back = await authorizeAtProvider(start.headers.get('location')!, accountId);
    return t.app.request(back.pathname + back.search, { headers: { Cookie: stateCookie } });
  }

  it('after the provider, unless the workspace turns that off', async () => {
    const { email, secret } = await enrolled();
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.email, email));
    op.accounts.set('g-2fa', { email, email_verified: true });

    const asked = await googleSignIn('g-2fa');
    expect(asked.status).toBe(302);
    expect(asked.headers.get('location')).toBe('/login/two-factor');
    const cookie = sessionCookie(asked);
    expect((await page('/api/auth/user', cookie)).status).toBe(401);
    const done = await form('/login/two-factor', { code: nextCode(secret) }, cookie);
    expect(done.headers.get('location')).toBe('/');

    await setRules({ twoFactorForExternal: false });
    const direct = await googleSignIn('g-2fa');
    expect(direct.headers.get('location')).toBe('/');
    expect((await page('/api/auth/user', sessionCookie(direct))).status).toBe(200);
  });
});
