import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_ADMIN_MESSAGE } from '../../src/admin/accounts';
import { getSecuritySettings, setSecuritySettings } from '../../src/admin/service';
import { auditLog, sessions, twoFactorRecoveryCodes, users } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { lastMailTo, register, registerAndVerify, userByEmail } from '../auth/helpers';

let t: TestContext;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin', firstName: 'Ann', lastName: 'Admin' });
});
afterAll(() => t.close());

const put = (id: string, body: unknown, cookie = admin.cookie) =>
  t.app.request(`/api/admin/users/${id}`, jsonRequest('PUT', body, cookie));
const auditOf = (entityId: string, action: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, entityId), eq(auditLog.action, action)));
const rowOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

describe('GET /api/admin/users', () => {
  it('lists every account with role, status, last sign-in and 2FA, for admins only', async () => {
    const viewer = await createSignedInUser(t.db, { role: 'viewer' });
    await t.db
      .update(users)
      .set({ twoFactorEnabledAt: new Date(), lastSignInAt: new Date('2025-01-02T03:04:05Z') })
      .where(eq(users.id, viewer.id));
    const res = await t.app.request('/api/admin/users', jsonRequest('GET', undefined, admin.cookie));
    expect(res.status).toBe(200);
    const list = (await res.json()) as { id: string }[];
    expect(list.find((a) => a.id === viewer.id)).toMatchObject({
      email: viewer.email,
      name: 'Test User',
      role: 'viewer',
      status: 'active',
      twoFactorEnabled: true,
      lastSignInAt: '2025-01-02T03:04:05.000Z',
    });
    expect(list.find((a) => a.id === admin.id)).toMatchObject({ role: 'admin', twoFactorEnabled: false });
    for (const role of ['editor', 'viewer', 'auditor'] as const) {
      const other = await createSignedInUser(t.db, { role });
      const refused = await t.app.request('/api/admin/users', jsonRequest('GET', undefined, other.cookie));
      expect(refused.status, role).toBe(403);
      expect((await put(viewer.id, { role: 'admin' }, other.cookie)).status, role).toBe(403);
    }
    expect((await rowOf(viewer.id)).role).toBe('viewer');
  });
});

describe('PUT /api/admin/users/{id}', () => {
  it('changes the role (audit-logged) and the user acts with it at once', async () => {
    const editor = await createSignedInUser(t.db, { role: 'editor' });
    const res = await put(editor.id, { role: 'viewer' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: editor.id, role: 'viewer', status: 'active' });
    const [entry] = await auditOf(editor.id, 'user.role_changed');
    expect(entry).toMatchObject({ actorId: admin.id, details: { from: 'editor', to: 'viewer' } });
    const write = await t.app.request('/api/team-members', jsonRequest('POST', { name: 'X' }, editor.cookie));
    expect(write.status).toBe(403);
  });

  it('deactivation ends every session (the next request is 401); reactivation lets them sign in again', async () => {
    const user = await createSignedInUser(t.db, { role: 'editor' });
    expect((await t.app.request('/api/auth/user', jsonRequest('GET', undefined, user.cookie))).status).toBe(200);
    const res = await put(user.id, { status: 'deactivated' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'deactivated' });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await t.app.request('/api/auth/user', jsonRequest('GET', undefined, user.cookie))).status).toBe(401);
    expect(await auditOf(user.id, 'user.deactivated')).toHaveLength(1);
    expect((await put(user.id, { status: 'deactivated' })).status).toBe(409);

    const back = await put(user.id, { status: 'active' });
    expect(back.status).toBe(200);
    expect((await rowOf(user.id)).accountStatus).toBe('active');
    expect(await auditOf(user.id, 'user.reactivated')).toHaveLength(1);
  });

  it('refuses to reactivate an account that was never deactivated (a pending one stays pending)', async () => {
    await register(t, 'pending-react@example.com');
    const { id } = await userByEmail(t.db, 'pending-react@example.com');
    const res = await put(id, { status: 'active' });
    expect(res.status).toBe(409);
    expect((await rowOf(id)).accountStatus).toBe('pending_verification');
  });

  it('answers 400 for a bad role or an empty change, 404 for an unknown account', async () => {
    const user = await createSignedInUser(t.db);
    for (const body of [{ role: 'owner' }, {}, { status: 'gone' }]) {
      const res = await put(user.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    }
    expect((await put('3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d', { role: 'viewer' })).status).toBe(404);
  });
});

describe('the last active admin', () => {
  it('cannot be demoted or deactivated; with a second admin both work', async () => {
    const solo = await createTestApp();
    try {
      const only = await createSignedInUser(solo.db, { role: 'admin' });
      const call = (id: string, body: unknown) =>
        solo.app.request(`/api/admin/users/${id}`, jsonRequest('PUT', body, only.cookie));
      for (const body of [{ role: 'editor' }, { status: 'deactivated' }]) {
        const res = await call(only.id, body);
        expect(res.status).toBe(409);
        expect(await res.json()).toMatchObject({ message: LAST_ADMIN_MESSAGE, code: 'last_admin' });
      }
      // A deactivated admin does not count as the one that keeps the workspace managed.
      const second = await createSignedInUser(solo.db, { role: 'admin' });
      expect((await call(second.id, { status: 'deactivated' })).status).toBe(200);
      expect((await call(only.id, { role: 'viewer' })).status).toBe(409);
      expect((await call(second.id, { status: 'active' })).status).toBe(200);
      expect((await call(only.id, { role: 'auditor' })).status).toBe(200);
      const [row] = await solo.db.select().from(users).where(eq(users.id, only.id));
      expect(row.role).toBe('auditor');
    } finally {
      await solo.close();
    }
  });

  it('survives two admins demoting each other at once: one change wins, one is refused', async () => {
    const duo = await createTestApp();
    try {
      const a = await createSignedInUser(duo.db, { role: 'admin' });
      const b = await createSignedInUser(duo.db, { role: 'admin' });
      const results = await Promise.all([
        duo.app.request(`/api/admin/users/${b.id}`, jsonRequest('PUT', { role: 'editor' }, a.cookie)),
        duo.app.request(`/api/admin/users/${a.id}`, jsonRequest('PUT', { role: 'editor' }, b.cookie)),
      ]);
      const statuses = results.map((r) => r.status).sort();
      // The loser is refused as the last admin, or (already demoted) no longer allowed to manage users.
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const admins = await duo.db.select().from(users).where(eq(users.role, 'admin'));
      expect(admins).toHaveLength(1);
    } finally {
      await duo.close();
    }
  });
});

describe('POST /api/admin/users/{id}/reset-2fa', () => {
  it('turns their two-factor sign-in off and deletes their recovery codes, audit-logged', async () => {
    const user = await createSignedInUser(t.db);
    await t.db
      .update(users)
      .set({ twoFactorSecret: 'JBSWY3DPEHPK3PXP', twoFactorEnabledAt: new Date(), twoFactorLastStep: 42 })
      .where(eq(users.id, user.id));
    await t.db.insert(twoFactorRecoveryCodes).values([
      { userId: user.id, codeHash: 'a'.repeat(64) },
      { userId: user.id, codeHash: 'b'.repeat(64) },
    ]);
    const res = await t.app.request(
      `/api/admin/users/${user.id}/reset-2fa`,
      jsonRequest('POST', undefined, admin.cookie),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ twoFactorEnabled: false });
    const row = await rowOf(user.id);
    expect([row.twoFactorSecret, row.twoFactorEnabledAt, row.twoFactorLastStep]).toEqual([null, null, null]);
    expect(await t.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id))).toEqual(
      [],
    );
    expect(await auditOf(user.id, 'user.two_factor_reset')).toHaveLength(1);
    const editor = await createSignedInUser(t.db);
    const refused = await t.app.request(
      `/api/admin/users/${user.id}/reset-2fa`,
      jsonRequest('POST', undefined, editor.cookie),
    );
    expect(refused.status).toBe(403);
  });
});

describe('resend verification', () => {
  it('e-mails a fresh link to an unverified account (the old one stops working); 409 once verified', async () => {
    await register(t, 'unverified@example.com');
    const before = await userByEmail(t.db, 'unverified@example.com');
    const res = await t.app.request(
      `/api/admin/users/${before.id}/resend-verification`,
      jsonRequest('POST', undefined, admin.cookie),
    );
    expect(res.status).toBe(200);
    const after = await userByEmail(t.db, 'unverified@example.com');
    expect(after.emailVerificationToken).not.toBe(before.emailVerificationToken);
    const mail = await lastMailTo(t.db, 'unverified@example.com', 'verify:');
    expect(mail.dedupeKey).toBe(`verify:${after.id}:${after.emailVerificationToken}`);
    expect(await auditOf(after.id, 'user.verification_resent')).toHaveLength(1);

    await registerAndVerify(t, 'verified@example.com');
    const verified = await userByEmail(t.db, 'verified@example.com');
    const again = await t.app.request(
      `/api/admin/users/${verified.id}/resend-verification`,
      jsonRequest('POST', undefined, admin.cookie),
    );
    expect(again.status).toBe(409);
  });

  it('sends at most 3 an hour to one account (429 with Retry-After), so a click loop cannot flood a mailbox', async () => {
    await register(t, 'flooded@example.com');
    const u = await userByEmail(t.db, 'flooded@example.com');
    const resend = () =>
      t.app.request(`/api/admin/users/${u.id}/resend-verification`, jsonRequest('POST', undefined, admin.cookie));
    for (let i = 0; i < 3; i++) expect((await resend()).status).toBe(200);
    const refused = await resend();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).message).toContain('Please try again later.');
    expect(await auditOf(u.id, 'user.verification_resent')).toHaveLength(3);
  });
});

describe('/api/admin/settings', () => {
  it('reads and saves the two-factor rules (audit-logged); 400 for a bad body; admins only', async () => {
    const call = (method: string, body?: unknown, cookie = admin.cookie) =>
      t.app.request('/api/admin/settings', jsonRequest(method, body, cookie));
    expect(await (await call('GET')).json()).toEqual({ requireTwoFactor: false, twoFactorForExternal: true });
    const both = { requireTwoFactor: false, twoFactorForExternal: false };
    expect(await (await call('PUT', both)).json()).toEqual(both);
    expect(await getSecuritySettings(t.db)).toEqual(both);
    expect((await call('PUT', { requireTwoFactor: 'yes' })).status).toBe(400);
    const editor = await createSignedInUser(t.db);
    expect((await call('PUT', { requireTwoFactor: true }, editor.cookie)).status).toBe(403);
    try {
      // An omitted twoFactorForExternal keeps its value.
      const on = await call('PUT', { requireTwoFactor: true });
      expect(on.status).toBe(200);
      expect(await on.json()).toEqual({ requireTwoFactor: true, twoFactorForExternal: false });
      expect(await auditOf('security', 'settings.security_changed')).toHaveLength(2);
    } finally {
      // Everyone (this admin too) must now set up 2FA first: put the rule back for the other tests.
      await setSecuritySettings(t.db, admin.id, { requireTwoFactor: false, twoFactorForExternal: true });
    }
  });
});

describe('approving with a role', () => {
  it('gives the picked role; editor when none is given; 400 for an unknown role', async () => {
    await registerAndVerify(t, 'gets-viewer@example.com');
    await registerAndVerify(t, 'gets-default@example.com');
    const viewerId = (await userByEmail(t.db, 'gets-viewer@example.com')).id;
    const defaultId = (await userByEmail(t.db, 'gets-default@example.com')).id;
    const bad = await t.app.request(
      `/api/admin/approve-user/${viewerId}`,
      jsonRequest('POST', { role: 'owner' }, admin.cookie),
    );
    expect(bad.status).toBe(400);
    const res = await t.app.request(
      `/api/admin/approve-user/${viewerId}`,
      jsonRequest('POST', { role: 'viewer' }, admin.cookie),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).user.role).toBe('viewer');
    expect((await rowOf(viewerId)).role).toBe('viewer');
    const [entry] = await auditOf(viewerId, 'user.approved');
    expect(entry.details).toMatchObject({ role: 'viewer' });
    await t.app.request(`/api/admin/approve-user/${defaultId}`, jsonRequest('POST', undefined, admin.cookie));
    expect((await rowOf(defaultId)).role).toBe('editor');
  });

  it('takes the role from the approval page form too', async () => {
    await registerAndVerify(t, 'form-auditor@example.com');
    const id = (await userByEmail(t.db, 'form-auditor@example.com')).id;
    const res = await t.app.request(`/admin/approval/${id}/approve`, {
      method: 'POST',
      headers: { Origin: 'http://localhost:3000', Cookie: admin.cookie },
      body: new URLSearchParams({ role: 'auditor' }),
    });
    expect(res.status).toBe(303);
    expect((await rowOf(id)).role).toBe('auditor');
    const page = await (await t.app.request('/admin/approval', { headers: { Cookie: admin.cookie } })).text();
    expect(page).toContain('<th scope="col">Role</th>');
  });
});

describe('GET /api/auth/user', () => {
  it('includes the role', async () => {
    const auditor = await createSignedInUser(t.db, { role: 'auditor' });
    const res = await t.app.request('/api/auth/user', jsonRequest('GET', undefined, auditor.cookie));
    expect(await res.json()).toMatchObject({ id: auditor.id, role: 'auditor' });
  });
});
