import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, userPreferences, users } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { lastMailTo, login, PASSWORD, registerAndVerify, userByEmail } from '../auth/helpers';

let t: TestContext;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, {
    role: 'admin',
    email: 'admin@example.com',
    firstName: 'Ann',
    lastName: 'Admin',
  });
  member = await createSignedInUser(t.db, { role: 'editor', email: 'member@example.com' });
});
afterAll(() => t.close());

const idOf = async (email: string) => (await userByEmail(t.db, email)).id;

describe('admin API authorisation', () => {
  it('refuses every admin call to a non-admin (403) and to a signed-out visitor (401)', async () => {
    await registerAndVerify(t, 'target@example.com');
    const id = await idOf('target@example.com');
    const calls: [string, string][] = [
      ['GET', '/api/admin/pending-users'],
      ['POST', `/api/admin/approve-user/${id}`],
      ['POST', `/api/admin/reject-user/${id}`],
      ['POST', '/api/admin/approve-user/not-a-uuid'],
    ];
    for (const [method, path] of calls) {
      const res = await t.app.request(path, jsonRequest(method, undefined, member.cookie));
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await res.json()).message).toBe('You do not have permission to access this page.');
      expect((await t.app.request(path, jsonRequest(method))).status).toBe(401);
    }
    expect((await userByEmail(t.db, 'target@example.com')).accountStatus).toBe('pending_approval');
  });

  it('refuses a cross-site approval', async () => {
    const id = await idOf('target@example.com');
    const res = await t.app.request(`/api/admin/approve-user/${id}`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', Cookie: admin.cookie },
    });
    expect(res.status).toBe(403);
    expect((await userByEmail(t.db, 'target@example.com')).accountStatus).toBe('pending_approval');
  });
});

describe('approving and rejecting', () => {
  it('lists pending users with the spec fields', async () => {
    await registerAndVerify(t, 'pending2@example.com');
    const res = await t.app.request('/api/admin/pending-users', { headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(200);
    const list = await res.json();
    const entry = list.find((u: { email: string }) => u.email === 'pending2@example.com');
    expect(Object.keys(entry).sort()).toEqual(
      ['authProvider', 'createdAt', 'email', 'firstName', 'id', 'isEmailVerified', 'lastName', 'role'].sort(),
    );
    expect(entry).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'editor',
      authProvider: 'local',
      isEmailVerified: true,
    });
    expect(list.some((u: { email: string }) => u.email === 'member@example.com')).toBe(false);
  });

  it('approves: the user becomes active, may sign in, is e-mailed, and the audit log says who and when', async () => {
    const id = await idOf('target@example.com');
    const before = Date.now();
    const res = await t.app.request(`/api/admin/approve-user/${id}`, jsonRequest('POST', undefined, admin.cookie));
    expect(res.status).toBe(200);
    const u = await userByEmail(t.db, 'target@example.com');
    expect(u).toMatchObject({ accountStatus: 'active', approvedBy: admin.id });
    expect(u.approvedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await login(t, 'target@example.com', PASSWORD)).status).toBe(200);
    const mail = await lastMailTo(t.db, 'target@example.com');
    expect(mail.subject).toMatch(/approved/);
    expect(mail.text).toContain(`${t.config.appUrl}/login`);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'user.approved')));
    expect(entry.actorId).toBe(admin.id);
    expect(entry.details).toMatchObject({ email: 'target@example.com', decidedBy: 'admin@example.com' });
    expect(entry.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('rejects: the user cannot sign in, is e-mailed, and the decision is audited', async () => {
    const id = await idOf('pending2@example.com');
    const res = await t.app.request(`/api/admin/reject-user/${id}`, jsonRequest('POST', undefined, admin.cookie));
    expect(res.status).toBe(200);
    expect((await userByEmail(t.db, 'pending2@example.com')).accountStatus).toBe('rejected');
    const signIn = await login(t, 'pending2@example.com', PASSWORD);
    expect(signIn.status).toBe(403);
    expect((await signIn.json()).code).toBe('account_rejected');
    expect((await lastMailTo(t.db, 'pending2@example.com')).subject).toMatch(/account request/);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'user.rejected')));
    expect(entries).toHaveLength(1);
    expect(entries[0].actorId).toBe(admin.id);
  });

  it('answers 409 for a user not awaiting approval, 404 for an unknown id, 400 for a bad id', async () => {
    const id = await idOf('target@example.com');
    expect(
      (await t.app.request(`/api/admin/approve-user/${id}`, jsonRequest('POST', undefined, admin.cookie))).status,
    ).toBe(409);
    expect(
      (
        await t.app.request(
          '/api/admin/reject-user/00000000-0000-4000-8000-000000000000',
          jsonRequest('POST', undefined, admin.cookie),
        )
      ).status,
    ).toBe(404);
    expect(
      (await t.app.request('/api/admin/reject-user/nope', jsonRequest('POST', undefined, admin.cookie))).status,
    ).toBe(400);
  });

  it('an account approved before verifying its e-mail becomes active on verification', async () => {
    await t.app.request(
      '/api/auth/register',
      jsonRequest('POST', {
        firstName: 'E',
        lastName: 'Arly',
        email: 'early@example.com',
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
    );
    const id = await idOf('early@example.com');
    const list = await (await t.app.request('/api/admin/pending-users', { headers: { Cookie: admin.cookie } })).json();
    expect(list.find((u: { id: string }) => u.id === id).isEmailVerified).toBe(false);
    await t.app.request(`/api/admin/approve-user/${id}`, jsonRequest('POST', undefined, admin.cookie));
    expect((await userByEmail(t.db, 'early@example.com')).accountStatus).toBe('pending_verification');
    const mail = await lastMailTo(t.db, 'early@example.com');
    const token = /verify-email\?token=([\w-]+)/.exec(mail.text)![1];
    const res = await (await t.app.request(`/api/auth/verify-email?token=${token}`)).json();
    expect(res.status).toBe('active');
  });
});

describe('/admin/approval page', () => {
  const form = (path: string, cookie: string, hx = false) =>
    t.app.request(path, {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, Cookie: cookie, ...(hx ? { 'HX-Request': 'true' } : {}) },
    });

  it('shows non-admins the Access Denied card (403)', async () => {
    const res = await t.app.request('/admin/approval', { headers: { Cookie: member.cookie } });
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(text).toContain('Access Denied');
    expect(text).toContain('You do not have permission to access this page.');
    expect(text).toContain('class="shell"');
  });

  it('refuses a non-admin decision POST', async () => {
    await registerAndVerify(t, 'page1@example.com');
    const id = await idOf('page1@example.com');
    expect((await form(`/admin/approval/${id}/approve`, member.cookie)).status).toBe(403);
    expect((await userByEmail(t.db, 'page1@example.com')).accountStatus).toBe('pending_approval');
  });

  it('shows admins the count, the table and a confirm dialog per action', async () => {
    const text = await (await t.app.request('/admin/approval', { headers: { Cookie: admin.cookie } })).text();
    expect(text).toContain('1 user pending approval');
    for (const h of ['User', 'Email', 'Auth Provider', 'Requested', 'Status', 'Actions'])
      expect(text).toContain(`<th scope="col">${h}</th>`);
    expect(text).toContain('page1@example.com');
    expect(text).toContain('Verified');
    const id = await idOf('page1@example.com');
    expect(text).toContain(`<dialog id="approve-${id}"`);
    expect(text).toContain(`<dialog id="reject-${id}"`);
    expect(text).toContain(`action="/admin/approval/${id}/approve"`);
  });

  it('approves with htmx: the list fragment comes back with a toast', async () => {
    const id = await idOf('page1@example.com');
    const res = await form(`/admin/approval/${id}/approve`, admin.cookie, true);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.headers.get('hx-trigger')!).showToast.title).toBe('User Approved');
    const text = await res.text();
    expect(text).toContain('id="pending-users"');
    expect(text).toContain('All caught up!');
    expect(text).not.toContain('<html');
    expect((await userByEmail(t.db, 'page1@example.com')).accountStatus).toBe('active');
  });

  it('rejects without JavaScript: POST then 303 back to the page with a banner', async () => {
    await registerAndVerify(t, 'page2@example.com');
    const id = await idOf('page2@example.com');
    const res = await form(`/admin/approval/${id}/reject`, admin.cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/approval?done=rejected');
    const text = await (
      await t.app.request('/admin/approval?done=rejected', { headers: { Cookie: admin.cookie } })
    ).text();
    expect(text).toContain('User Rejected');
    expect(text).toContain('All caught up!');
  });

  it('shows "Approval Failed" when the user is no longer pending', async () => {
    const id = await idOf('page2@example.com');
    const hx = await form(`/admin/approval/${id}/approve`, admin.cookie, true);
    expect(hx.status).toBe(409);
    expect(JSON.parse(hx.headers.get('hx-trigger')!).showToast).toMatchObject({
      title: 'Approval Failed',
      text: 'This user is not awaiting approval.',
    });
    const plain = await form(`/admin/approval/${id}/approve`, admin.cookie);
    expect(plain.status).toBe(409);
    expect(await plain.text()).toContain('Approval Failed: This user is not awaiting approval.');
  });

  it('has the User Approvals item in an admin sidebar', async () => {
    const text = await (await t.app.request('/admin/approval', { headers: { Cookie: admin.cookie } })).text();
    expect(text).toContain('href="/admin/approval"');
    const others = await (await t.app.request('/admin/approval', { headers: { Cookie: member.cookie } })).text();
    expect(others).not.toContain('User Approvals</span>');
  });
});

describe('rejected user sessions', () => {
  it('a rejection signs the user out everywhere', async () => {
    const victim = await createSignedInUser(t.db, { email: 'victim@example.com' });
    await t.db.update(users).set({ accountStatus: 'pending_approval' }).where(eq(users.id, victim.id));
    await t.app.request(`/api/admin/reject-user/${victim.id}`, jsonRequest('POST', undefined, admin.cookie));
    await t.db.update(users).set({ accountStatus: 'active' }).where(eq(users.id, victim.id));
    expect((await t.app.request('/api/auth/user', { headers: { Cookie: victim.cookie } })).status).toBe(401);
  });
});

describe("/admin/approval in the admin's timezone", () => {
  it("the Requested tooltip is the request time in the admin's saved timezone, not a raw ISO string", async () => {
    const sydneyAdmin = await createSignedInUser(t.db, { role: 'admin' });
    await t.db.insert(userPreferences).values({ userId: sydneyAdmin.id, timezone: 'Australia/Sydney' });
    // 14:15 UTC on 20 Nov is 1:15 am on 21 Nov in Sydney (AEDT, UTC+11).
    const [pending] = await t.db
      .insert(users)
      .values({
        email: 'tz-pending@example.com',
        accountStatus: 'pending_approval',
        createdAt: new Date('2026-11-20T14:15:00Z'),
      })
      .returning();
    const html = await (await t.app.request('/admin/approval', { headers: { Cookie: sydneyAdmin.cookie } })).text();
    expect(html).toContain('title="21 Nov 2026, 1:15 am"');
    expect(html).not.toContain('2026-11-20T14:15:00.000Z');
    await t.db.delete(users).where(eq(users.id, pending.id));
  });
});
