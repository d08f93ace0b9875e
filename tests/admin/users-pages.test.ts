import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/audit/service';
import { sessions, userPreferences, users } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { login, PASSWORD, registerAndVerify, userByEmail } from '../auth/helpers';

let t: TestContext;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin', firstName: 'Ann', lastName: 'Admin' });
});
afterAll(() => t.close());

const page = (path: string, cookie: string) => t.app.request(path, { headers: { Cookie: cookie } });
const post = (path: string, fields: Record<string, string>, cookie = admin.cookie) =>
  t.app.request(path, {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, Cookie: cookie },
    body: new URLSearchParams(fields),
  });
const rowOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

describe('/admin/users (plain forms)', () => {
  it('lists the accounts for admins, with the sidebar link; the Access Denied card for everyone else', async () => {
    const res = await page('/admin/users', admin.cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(admin.email);
    expect(html).toContain('href="/admin/users"');
    expect(html).toContain('Require two-factor sign-in for everyone');
    expect(html).toContain('Ask for the code after Google/OIDC sign-in');
    for (const role of ['editor', 'viewer', 'auditor'] as const) {
      const other = await createSignedInUser(t.db, { role });
      const denied = await page('/admin/users', other.cookie);
      expect(denied.status, role).toBe(403);
      const text = await denied.text();
      expect(text).toContain('Access Denied');
      expect(text).not.toContain('href="/admin/users"');
      expect((await post(`/admin/users/${other.id}/role`, { role: 'admin' }, other.cookie)).status).toBe(403);
      expect((await rowOf(other.id)).role).toBe(role);
    }
  });

  it('changes a role and deactivates with POST → 303 back and a toast', async () => {
    const user = await createSignedInUser(t.db, { role: 'editor' });
    const res = await post(`/admin/users/${user.id}/role`, { role: 'auditor' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/users?done=role');
    expect((await rowOf(user.id)).role).toBe('auditor');
    const back = await (await page('/admin/users?done=role', admin.cookie)).text();
    expect(back).toContain('Role changed');

    const off = await post(`/admin/users/${user.id}/status`, { status: 'deactivated' });
    expect(off.headers.get('location')).toBe('/admin/users?done=deactivated');
    expect((await rowOf(user.id)).accountStatus).toBe('deactivated');
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await post(`/admin/users/${user.id}/status`, { status: 'active' })).status).toBe(303);
    expect((await rowOf(user.id)).accountStatus).toBe('active');
  });

  it('refuses to demote the last active admin with the page and its message (409)', async () => {
    const res = await post(`/admin/users/${admin.id}/role`, { role: 'viewer' });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('This is the last active admin');
    expect((await rowOf(admin.id)).role).toBe('admin');
    expect((await post(`/admin/users/${admin.id}/role`, { role: 'owner' })).status).toBe(400);
    expect((await post('/admin/users/not-a-uuid/role', { role: 'viewer' })).status).toBe(404);
  });

  it('saves the security settings from the form (unchecked boxes are off)', async () => {
    const res = await post('/admin/users/settings', { twoFactorForExternal: 'on' });
    expect(res.status).toBe(303);
    const html = await (await page('/admin/users', admin.cookie)).text();
    expect(html).toMatch(/name="twoFactorForExternal" checked=""/);
    expect(html).toMatch(/name="requireTwoFactor" value="on"/);
    expect(html).not.toMatch(/name="requireTwoFactor" checked=""/);
  });

  it('shows the last sign-in, set by a password sign-in', async () => {
    await registerAndVerify(t, 'signs-in@example.com');
    const { id } = await userByEmail(t.db, 'signs-in@example.com');
    await t.app.request(`/api/admin/approve-user/${id}`, jsonRequest('POST', undefined, admin.cookie));
    expect((await rowOf(id)).lastSignInAt).toBeNull();
    const before = Date.now();
    expect((await login(t, 'signs-in@example.com', PASSWORD)).status).toBe(200);
    const at = (await rowOf(id)).lastSignInAt;
    expect(at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const list = await (await t.app.request('/api/admin/users', jsonRequest('GET', undefined, admin.cookie))).json();
    expect(list.find((a: { id: string }) => a.id === id).lastSignInAt).toBe(at?.toISOString());
  });
});

describe('/admin/audit and GET /api/admin/audit', () => {
  it('shows the audit trail to auditors and admins, newest first, times in the reader timezone; 403 for editors', async () => {
    const auditor = await createSignedInUser(t.db, { role: 'auditor', firstName: 'Aud', lastName: 'Itor' });
    await t.db.insert(userPreferences).values({ userId: auditor.id, timezone: 'Asia/Tokyo' });
    await recordAudit(t.db, { actorId: admin.id, action: 'test.marker', entityType: 'server', entityId: 'srv-1' });
    const res = await page('/admin/audit', auditor.cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('test.marker');
    expect(html).toContain('Ann Admin');
    expect(html).toContain('server srv-1');
    expect(html).toContain('times in Asia/Tokyo');
    expect(html).toContain('href="/admin/audit"');
    expect(html).not.toContain('href="/admin/users"');

    const editor = await createSignedInUser(t.db, { role: 'editor' });
    expect((await page('/admin/audit', editor.cookie)).status).toBe(403);
    expect((await t.app.request('/api/admin/audit', jsonRequest('GET', undefined, editor.cookie))).status).toBe(403);
    const viewer = await createSignedInUser(t.db, { role: 'viewer' });
    expect((await t.app.request('/api/admin/audit', jsonRequest('GET', undefined, viewer.cookie))).status).toBe(403);
  });
  // Paging, filters and CSV: tests/admin/audit-api.test.ts and audit-pages.test.ts.
});
