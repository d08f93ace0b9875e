import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamMembers, users } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser } from '../helpers/users';
import { activate, lastMailTo, login, PASSWORD, register, registerAndVerify, userByEmail } from './helpers';
import { authorizeAtProvider, startOidcProvider } from './oidc-provider';

let op: Awaited<ReturnType<typeof startOidcProvider>>;
let t: TestContext;

beforeAll(async () => {
  op = await startOidcProvider([`${TEST_ORIGIN}/auth/google/callback`, `${TEST_ORIGIN}/auth/oidc/callback`]);
  t = await createTestApp({
    GOOGLE_CLIENT_ID: 'ops-hub',
    GOOGLE_CLIENT_SECRET: 'ops-hub-secret',
    GOOGLE_ISSUER: op.issuer,
  });
  op.accounts.set('g-admin', { email: 'Boss@Example.com', email_verified: true, given_name: 'Bo', family_name: 'Ss' });
  op.accounts.set('g-user', {
    email: 'newbie@example.com',
    email_verified: true,
    given_name: 'New',
    family_name: 'Bie',
  });
  op.accounts.set('g-linked', { email: 'local@example.com', email_verified: true });
  op.accounts.set('g-unverified', { email: 'unverified@example.com', email_verified: false });
  op.accounts.set('g-victim', {
    email: 'victim@example.com',
    email_verified: true,
    given_name: 'Victoria',
    family_name: 'Owner',
  });
  op.accounts.set('g-invitee', {
    email: 'invitee@example.com',
    email_verified: true,
    given_name: 'In',
    family_name: 'Vitee',
  });
  op.accounts.set('g-kept', {
    email: 'kept@example.com',
    email_verified: true,
    given_name: 'Provider',
    family_name: 'Name',
  });
});
afterAll(async () => {
  await t?.close();
  await op?.close();
});

/** Runs the whole sign-in: /auth/{provider} → provider login + consent → /auth/{provider}/callback. */
async function signIn(
  ctx: TestContext,
  accountId: string,
  opts: { provider?: string; next?: string; abort?: boolean; tamper?: boolean } = {},
) {
  const provider = opts.provider ?? 'google';
  const start = await ctx.app.request(`/auth/${provider}${opts.next ? `?next=${encodeURIComponent(opts.next)}` : ''}`);
  expect(start.status).toBe(302);
  const authUrl = start.headers.get('location')!;
  expect(authUrl.startsWith(op.issuer)).toBe(true);
  const params = new URL(authUrl).searchParams;
  expect(params.get('code_challenge_method')).toBe('S256');
  expect(params.get('state')).toBeTruthy();
  expect(params.get('nonce')).toBeTruthy();
  const setCookie = start.headers.get('set-cookie')!;
  expect(setCookie).toMatch(/ops_oidc=.*HttpOnly/i);
  let stateCookie = setCookie.split(';')[0];
  if (opts.tamper) stateCookie = stateCookie.replace(/=(.)/, (_m, ch) => `=${ch === 'a' ? 'b' : 'a'}`);
  const back = await authorizeAtProvider(authUrl, accountId, { abort: opts.abort });
  expect(back.origin).toBe(TEST_ORIGIN);
  return ctx.app.request(back.pathname + back.search, { headers: { Cookie: stateCookie } });
}

describe('Google sign-in against a real OpenID provider on loopback', () => {
  it('redirects to /login?error=google_not_configured when Google is not configured', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.request('/auth/google');
      expect(res.headers.get('location')).toBe('/login?error=google_not_configured');
    } finally {
      await plain.close();
    }
  });

  it('signs the first account in as an active admin (verified provider e-mail, no verification mail) and returns to next', async () => {
    const res = await signIn(t, 'g-admin', { next: '/team?x=1' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/team?x=1');
    const cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('ops_session='))!
      .split(';')[0];
    const me = await t.app.request('/api/auth/user', { headers: { Cookie: cookie } });
    expect(await me.json()).toMatchObject({ email: 'boss@example.com', role: 'admin', firstName: 'Bo' });
    const u = await userByEmail(t.db, 'boss@example.com');
    expect(u).toMatchObject({ authProvider: 'google', isEmailVerified: true, accountStatus: 'active', password: null });
    expect(u.externalId).toBe(`${op.issuer}|g-admin`);
    expect(await lastMailTo(t.db, 'boss@example.com')).toBeUndefined();
  });

  it('signs in the same identity again', async () => {
    const res = await signIn(t, 'g-admin');
    expect(res.headers.get('location')).toBe('/');
  });

  it('puts later accounts into pending approval and e-mails the admins', async () => {
    const res = await signIn(t, 'g-user');
    expect(res.headers.get('location')).toBe('/approval-pending');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('ops_session=') && !c.startsWith('ops_session=;'))).toBe(
      false,
    );
    expect(await userByEmail(t.db, 'newbie@example.com')).toMatchObject({
      accountStatus: 'pending_approval',
      role: 'editor',
      isEmailVerified: true,
    });
    expect((await lastMailTo(t.db, 'boss@example.com')).text).toContain('newbie@example.com');
    const again = await signIn(t, 'g-user');
    expect(again.headers.get('location')).toBe('/approval-pending');
  });

  it('links to an existing account with the same verified e-mail, which then counts as verified', async () => {
    await register(t, 'local@example.com');
    expect((await userByEmail(t.db, 'local@example.com')).accountStatus).toBe('pending_verification');
    const res = await signIn(t, 'g-linked');
    expect(res.headers.get('location')).toBe('/approval-pending');
    const u = await userByEmail(t.db, 'local@example.com');
    expect(u).toMatchObject({
      isEmailVerified: true,
      accountStatus: 'pending_approval',
      authProvider: 'google',
      emailVerificationToken: null,
    });
    expect(u.externalId).toBe(`${op.issuer}|g-linked`);
  });

  it('drops the password and names of an unverified registration it links: the registrant cannot sign in after approval', async () => {
    // Someone registers the victim's address with a password of their choosing and never verifies it.
    await register(t, 'victim@example.com', {
      firstName: 'Mallory',
      lastName: 'Squatter',
      password: 'squatter pass 1',
      confirmPassword: 'squatter pass 1',
    });
    const res = await signIn(t, 'g-victim');
    expect(res.headers.get('location')).toBe('/approval-pending');
    expect(await userByEmail(t.db, 'victim@example.com')).toMatchObject({
      password: null,
      firstName: 'Victoria',
      lastName: 'Owner',
      authProvider: 'google',
      isEmailVerified: true,
    });

    // The admin sees the provider's names, then approves.
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    const page = await (await t.app.request('/admin/approval', { headers: { Cookie: admin.cookie } })).text();
    expect(page).toContain('Victoria Owner');
    expect(page).not.toContain('Mallory');
    const id = (await userByEmail(t.db, 'victim@example.com')).id;
    expect(
      (await t.app.request(`/api/admin/approve-user/${id}`, jsonRequest('POST', undefined, admin.cookie))).status,
    ).toBe(200);

    expect((await login(t, 'victim@example.com', 'squatter pass 1')).status).toBe(401);
    const owner = await signIn(t, 'g-victim');
    expect(owner.headers.get('location')).toBe('/');
  });

  it('keeps the password and names of a verified account it links', async () => {
    await registerAndVerify(t, 'kept@example.com');
    await activate(t.db, 'kept@example.com');
    expect((await signIn(t, 'g-kept')).headers.get('location')).toBe('/');
    expect(await userByEmail(t.db, 'kept@example.com')).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      authProvider: 'local',
      externalId: `${op.issuer}|g-kept`,
    });
    expect((await login(t, 'kept@example.com', PASSWORD)).status).toBe(200);
  });

  it('sends a rejected account to /login?error=account_rejected', async () => {
    await t.db.update(users).set({ accountStatus: 'rejected' }).where(eq(users.email, 'newbie@example.com'));
    const res = await signIn(t, 'g-user');
    expect(res.headers.get('location')).toBe('/login?error=account_rejected');
  });

  it('refuses an identity whose e-mail the provider has not verified', async () => {
    const res = await signIn(t, 'g-unverified');
    expect(res.headers.get('location')).toBe('/login?error=google_auth_failed');
    expect(await userByEmail(t.db, 'unverified@example.com')).toBeUndefined();
  });

  it('fails safely with a tampered state cookie, no cookie, or when the user cancels', async () => {
    expect((await signIn(t, 'g-admin', { tamper: true })).headers.get('location')).toBe(
      '/login?error=google_auth_failed',
    );
    expect((await signIn(t, 'g-admin', { abort: true })).headers.get('location')).toBe(
      '/login?error=google_auth_failed',
    );
    const bare = await t.app.request('/auth/google/callback?code=x&state=y');
    expect(bare.headers.get('location')).toBe('/login?error=google_auth_failed');
  });

  it('fails with google_auth_failed when the provider cannot be reached', async () => {
    const down = await createTestApp({
      GOOGLE_CLIENT_ID: 'x',
      GOOGLE_CLIENT_SECRET: 'y',
      GOOGLE_ISSUER: 'http://127.0.0.1:9',
    });
    try {
      expect((await down.app.request('/auth/google')).headers.get('location')).toBe('/login?error=google_auth_failed');
    } finally {
      await down.close();
    }
  });
});

describe('generic OIDC sign-in (OIDC_ISSUER)', () => {
  it('uses the same flow at /auth/oidc', async () => {
    const sso = await createTestApp({
      OIDC_ISSUER: op.issuer,
      OIDC_CLIENT_ID: 'ops-hub',
      OIDC_CLIENT_SECRET: 'ops-hub-secret',
    });
    try {
      expect(await (await sso.app.request('/login')).text()).toContain('Sign in with SSO');
      const res = await signIn(sso, 'g-admin', { provider: 'oidc' });
      expect(res.headers.get('location')).toBe('/');
      expect(await userByEmail(sso.db, 'boss@example.com')).toMatchObject({
        authProvider: 'oidc',
        role: 'admin',
        accountStatus: 'active',
      });
    } finally {
      await sso.close();
    }
  });
});

describe('a provider sign-in and the team directory', () => {
  const member = async (email: string) =>
    (await t.db.select().from(teamMembers).where(eq(teamMembers.email, email)))[0];

  it('leaves "Login Successful" for the next page and records the member\'s last sign-in', async () => {
    await t.db.insert(teamMembers).values({ name: 'Bo Ss', email: 'boss@example.com', role: 'Manager' });
    const before = Date.now();
    const res = await signIn(t, 'g-admin');
    expect(res.headers.get('location')).toBe('/');
    const flash = res.headers.getSetCookie().find((c) => c.startsWith('ops_flash='))!;
    expect(flash.split(';')[0]).toBe('ops_flash=signed_in');
    expect(flash).toMatch(/HttpOnly/i);
    const lastActive = (await member('boss@example.com')).lastActive;
    expect(lastActive!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(lastActive!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('activates the invited entry of the address the provider confirms', async () => {
    await t.db
      .insert(teamMembers)
      .values({ name: 'In Vitee', email: 'invitee@example.com', role: 'VIP', status: 'invited' });
    const res = await signIn(t, 'g-invitee');
    // Not an admin: the new account awaits approval, but the invitation is taken up.
    expect(res.headers.get('location')).toBe('/approval-pending');
    expect((await member('invitee@example.com')).status).toBe('active');
    expect((await member('invitee@example.com')).lastActive).toBeNull();
  });
});
