import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { userByEmail } from '../auth/helpers';
import { authorizeAtProvider, startOidcProvider } from '../auth/oidc-provider';

let op: Awaited<ReturnType<typeof startOidcProvider>>;
let t: TestContext;

beforeAll(async () => {
  op = await startOidcProvider([`${TEST_ORIGIN}/auth/google/callback`]);
  t = await createTestApp({
    GOOGLE_CLIENT_ID: 'ops-hub',
    GOOGLE_CLIENT_SECRET: 'ops-hub-secret',
    GOOGLE_ISSUER: op.issuer,
  });
  op.accounts.set('g-first', {
    email: 'first@example.com',
    email_verified: true,
    given_name: 'Fi',
    family_name: 'Rst',
  });
});
afterAll(async () => {
  await t?.close();
  await op?.close();
});

describe('last sign-in (the /admin/users column)', () => {
  it('is set by a Google/OIDC sign-in', async () => {
    const start = await t.app.request('/auth/google');
    const stateCookie = start.headers.get('set-cookie')!.split(';')[0];
    const back = await authorizeAtProvider(start.headers.get('location')!, 'g-first');
    const before = Date.now();
    const res = await t.app.request(back.pathname + back.search, { headers: { Cookie: stateCookie } });
    expect(res.status).toBe(302);
    const u = await userByEmail(t.db, 'first@example.com');
    expect(u.accountStatus).toBe('active');
    expect(u.lastSignInAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});
