import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servers } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let editor: TestUser;
let viewer: TestUser;
let auditor: TestUser;
let server: typeof servers.$inferSelect;

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  auditor = await createSignedInUser(t.db, { role: 'auditor' });
  [server] = await t.db
    .insert(servers)
    .values({ name: 'app-roles', ipAddress: '127.0.0.31', environment: 'production', status: 'online' })
    .returning();
});
afterAll(() => t.close());

const html = async (path: string, user: TestUser) =>
  (await t.app.request(path, { headers: { Cookie: user.cookie } })).text();

describe('infrastructure for those who only read', () => {
  it('shows viewers and auditors no Add Server, Edit, Run check or Delete; editors see them', async () => {
    const writerPage = await html('/infrastructure', editor);
    for (const text of [
      'Add Server',
      'aria-label="Edit app-roles"',
      'aria-label="Run health check on app-roles"',
      'aria-label="Delete app-roles"',
    ])
      expect(writerPage, text).toContain(text);
    for (const reader of [viewer, auditor]) {
      const page = await html('/infrastructure', reader);
      expect(page).toContain('app-roles');
      expect(page).toContain('aria-label="View app-roles"');
      for (const text of ['Add Server', 'Edit app-roles', 'Run health check on app-roles', 'Delete app-roles'])
        expect(page, text).not.toContain(text);
      // The island's props say so too, so hydration renders the same.
      expect(page).toContain('&quot;canWrite&quot;:false');
      expect(await html('/infrastructure?create=server', reader)).not.toContain('Add Server');
    }
  });

  it('shows them the detail page without Run Health Check or the link forms', async () => {
    const writer = await html(`/infrastructure/${server.id}`, editor);
    expect(writer).toContain('Run Health Check');
    expect(writer).toContain('Link Document');
    for (const reader of [viewer, auditor]) {
      const page = await html(`/infrastructure/${server.id}`, reader);
      expect(page).toContain('app-roles');
      expect(page).not.toContain('Run Health Check');
      expect(page).not.toContain('Link Document');
      expect(page).not.toContain(`action="/infrastructure/${server.id}/`);
    }
  });

  it('refuses their writes (403) through the API and the page forms, and changes nothing', async () => {
    for (const reader of [viewer, auditor]) {
      const calls: [string, string, unknown][] = [
        ['POST', '/api/servers', { name: 'x', ipAddress: '127.0.0.32' }],
        ['PUT', `/api/servers/${server.id}`, { name: 'renamed', ipAddress: '127.0.0.31' }],
        ['DELETE', `/api/servers/${server.id}`, undefined],
        ['POST', `/api/servers/${server.id}/health-check`, undefined],
        ['PUT', `/api/servers/${server.id}/metrics`, { status: 'maintenance' }],
      ];
      for (const [method, path, body] of calls) {
        const res = await t.app.request(path, jsonRequest(method, body, reader.cookie));
        expect(res.status, `${method} ${path}`).toBe(403);
        expect((await res.json()).message).toBe('You do not have permission to access this page.');
      }
      const form = await t.app.request(`/infrastructure/${server.id}/health-check`, {
        method: 'POST',
        headers: { Cookie: reader.cookie, Origin: TEST_ORIGIN },
      });
      expect(form.status).toBe(403);
      const list = await t.app.request('/api/servers', jsonRequest('GET', undefined, reader.cookie));
      expect(list.status).toBe(200);
    }
    const [row] = await t.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row).toMatchObject({ name: 'app-roles', status: 'online', lastHealthCheck: null });
  });
});
