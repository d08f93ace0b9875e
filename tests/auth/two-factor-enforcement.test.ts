import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { activate, clearThrottle, login, PASSWORD, register, sessionCookie, userByEmail } from './helpers';
import { enrol, get, nextCode, post } from './two-factor-helpers';

let t: TestContext;
let admin: { email: string; cookie: string };
let n = 0;

/** A fresh active account with a password (no two-factor). */
async function newAccount() {
  const email = `req-${++n}@example.com`;
  await register(t, email);
  await activate(t.db, email);
  return email;
}

async function account() {
  const email = await newAccount();
  return { email, cookie: sessionCookie(await login(t, email, PASSWORD)) };
}

const requireTwoFactor = (on: boolean) =>
  t.app.request('/api/admin/settings', jsonRequest('PUT', { requireTwoFactor: on }, admin.cookie));

const held = async (res: Response) => {
  expect(res.status).toBe(403);
  expect(await res.json()).toEqual({
    code: 'two_factor_setup_required',
    message: 'Two-factor sign-in is required in this workspace. Set it up in Settings › Security to continue.',
  });
};

beforeAll(async () => {
  t = await createTestApp();
  const adminEmail = await newAccount();
  admin = { email: adminEmail, cookie: sessionCookie(await login(t, adminEmail, PASSWORD)) };
  await t.db.update(users).set({ role: 'admin' }).where(eq(users.email, admin.email));
  // The admin has two-factor on, so requiring it does not hold the admin back.
  const { secret } = await enrol(t, admin.cookie);
  const step = await post(t, '/api/auth/login', { email: admin.email, password: PASSWORD });
  const done = await post(t, '/api/auth/two-factor', { code: nextCode(secret) }, sessionCookie(step));
  admin.cookie = sessionCookie(done);
});
afterAll(() => t.close());
beforeEach(async () => {
  await clearThrottle(t.db);
  expect((await requireTwoFactor(true)).status).toBe(200);
});

describe('requireTwoFactor: everyone must set up two-factor sign-in', () => {
  it('a new sign-in gets twoFactorSetupRequired; only set-up, who-am-I and logout work until it is on', async () => {
    const email = await newAccount();
    const res = await login(t, email, PASSWORD);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ twoFactorSetupRequired: true, user: { email } });
    const cookie = sessionCookie(res);
    const u = await userByEmail(t.db, email);
    const [row] = await t.db.select().from(sessions).where(eq(sessions.userId, u.id));
    expect(row.stage).toBe('two_factor_setup');

    await held(await get(t, '/api/knowledge-base', cookie));
    await held(await post(t, '/api/knowledge-base', { title: 'x' }, cookie));
    await held(await post(t, '/api/me/two-factor/disable', { code: '123456' }, cookie));
    const me = await get(t, '/api/auth/user', cookie);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email, twoFactorSetupRequired: true });
    // Pages go to the set-up; the set-up page itself opens.
    const home = await get(t, '/', cookie);
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('/settings/two-factor');
    expect((await get(t, '/settings/two-factor', cookie)).status).toBe(200);

    const { secret } = await enrol(t, cookie);
    expect(secret).toBeTruthy();
    expect((await get(t, '/api/knowledge-base', cookie)).status).toBe(200);
    const [after] = await t.db.select().from(sessions).where(eq(sessions.userId, u.id));
    expect(after.stage).toBeNull();
  });

  it('holds back sessions that were signed in before the requirement, and Bearer tokens, too', async () => {
    expect((await requireTwoFactor(false)).status).toBe(200);
    const { cookie } = await account();
    const tokenRes = await post(t, '/api/me/tokens', { name: 'cli', scope: 'read' }, cookie);
    expect(tokenRes.status).toBe(201);
    const { token } = await tokenRes.json();
    expect((await get(t, '/api/knowledge-base', cookie)).status).toBe(200);

    expect((await requireTwoFactor(true)).status).toBe(200);
    await held(await get(t, '/api/knowledge-base', cookie));
    await held(await t.app.request('/api/knowledge-base', { headers: { Authorization: `Bearer ${token}` } }));

    // Turning the requirement off lets them through again.
    expect((await requireTwoFactor(false)).status).toBe(200);
    expect((await get(t, '/api/knowledge-base', cookie)).status).toBe(200);
  });

  it('logout works while held', async () => {
    const { cookie } = await account();
    const res = await post(t, '/api/auth/logout', {}, cookie);
    expect(res.status).toBe(303);
    expect((await get(t, '/api/auth/user', cookie)).status).toBe(401);
  });

  it('users with two-factor on are not held, and cannot turn it off while it is required', async () => {
    expect((await requireTwoFactor(false)).status).toBe(200);
    const { cookie } = await account();
    const { secret } = await enrol(t, cookie);
    expect((await requireTwoFactor(true)).status).toBe(200);
    expect((await get(t, '/api/knowledge-base', cookie)).status).toBe(200);
    const off = await post(t, '/api/me/two-factor/disable', { code: nextCode(secret) }, cookie);
    expect(off.status).toBe(403);
    expect((await off.json()).code).toBe('two_factor_required');
  });
});
