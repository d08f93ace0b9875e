import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** The dashboard and the objects API (cross-feature role checks that have no folder of their own here). */
let t: TestContext;
let editor: TestUser;
let viewer: TestUser;
let auditor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  auditor = await createSignedInUser(t.db, { role: 'auditor' });
});
afterAll(() => t.close());

const html = async (path: string, user: TestUser) =>
  (await t.app.request(path, { headers: { Cookie: user.cookie } })).text();

describe('dashboard quick actions by role', () => {
  it('offers editors the create links and Run Health Check; readers only where to read', async () => {
    const writer = await html('/', editor);
    for (const text of ['Create Knowledge Base', 'Add Server', 'Run Health Check', 'action="/dashboard/health-check"'])
      expect(writer, text).toContain(text);
    for (const reader of [viewer, auditor]) {
      const page = await html('/', reader);
      expect(page).toContain('Quick Actions');
      expect(page).toContain('Browse Knowledge Base');
      for (const text of [
        'Create Knowledge Base',
        'Create How-To Guide',
        'Auto Create KB',
        'Add Server',
        'Run Health Check',
      ])
        expect(page, text).not.toContain(text);
      const res = await t.app.request('/dashboard/health-check', {
        method: 'POST',
        headers: { Cookie: reader.cookie, Origin: TEST_ORIGIN },
      });
      expect(res.status).toBe(403);
    }
  });
});

describe('images by role', () => {
  it('refuses an upload URL to viewers and auditors (403) and gives one to editors', async () => {
    const ask = (user: TestUser) =>
      t.app.request('/api/objects/upload', { method: 'POST', headers: { Cookie: user.cookie, Origin: TEST_ORIGIN } });
    expect((await ask(editor)).status).toBe(200);
    for (const reader of [viewer, auditor]) {
      const res = await ask(reader);
      expect(res.status).toBe(403);
      expect(typeof (await res.json()).message).toBe('string');
    }
  });
});

describe('the Admin section of the sidebar', () => {
  it('links Users for admins, Audit Trail for admins and auditors, neither for editors and viewers', async () => {
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    const links = async (user: TestUser) => {
      const page = await html('/', user);
      return ['/admin/users', '/admin/audit'].filter((href) => page.includes(`href="${href}"`));
    };
    expect(await links(admin)).toEqual(['/admin/users', '/admin/audit']);
    expect(await links(auditor)).toEqual(['/admin/audit']);
    expect(await links(editor)).toEqual([]);
    expect(await links(viewer)).toEqual([]);
  });
});
