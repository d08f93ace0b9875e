import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, serverDocuments, servers } from '../../src/db/schema';
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
      'aria-label="Create build document for app-roles"',
      `href="/knowledge-base/new?type=build-document&amp;server=${server.id}"`,
    ])
      expect(writerPage, text).toContain(text);
    for (const reader of [viewer, auditor]) {
      const page = await html('/infrastructure', reader);
      expect(page).toContain('app-roles');
      expect(page).toContain('aria-label="View app-roles"');
      for (const text of [
        'Add Server',
        'Edit app-roles',
        'Run health check on app-roles',
        'Delete app-roles',
        'Create build document',
      ])
        expect(page, text).not.toContain(text);
      // The island's props say so too, so hydration renders the same.
      expect(page).toContain('&quot;canWrite&quot;:false');
      expect(await html('/infrastructure?create=server', reader)).not.toContain('Add Server');
    }
  });

  it('shows them the detail page and its runbooks without Run Health Check, the link forms or New', async () => {
    const [doc] = await t.db
      .insert(documents)
      .values({ space: 'knowledge', title: 'Roles runbook', content: 'x', templateType: 'work_instruction' })
      .returning();
    await t.db.insert(serverDocuments).values({ serverId: server.id, documentId: doc.id, documentType: 'runbook' });
    const writeActions = ['Run Health Check', 'Link a document', 'New runbook', 'Create build document', 'Unlink'];
    const writer = await html(`/infrastructure/${server.id}?q=roles`, editor);
    for (const text of writeActions) expect(writer, text).toContain(text);
    for (const reader of [viewer, auditor]) {
      const page = await html(`/infrastructure/${server.id}?q=roles`, reader);
      expect(page).toContain('app-roles');
      expect(page).toContain('Runbooks</h2>');
      expect(page).toContain(`href="/knowledge-base/${doc.id}/roles-runbook"`);
      for (const text of writeActions) expect(page, text).not.toContain(text);
      expect(page).not.toContain(`action="/infrastructure/${server.id}`);
      expect(page).not.toContain('/knowledge-base/new');
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
        ['GET', `/api/servers/${server.id}/build-document`, undefined],
      ];
      for (const [method, path, body] of calls) {
        const res = await t.app.request(path, jsonRequest(method, body, reader.cookie));
        expect(res.status, `${method} ${path}`).toBe(403);
        expect((await res.json()).message).toBe('You do not have permission to access this page.');
      }
      for (const action of ['health-check', 'documents']) {
        const form = await t.app.request(`/infrastructure/${server.id}/${action}`, {
          method: 'POST',
          headers: { Cookie: reader.cookie, Origin: TEST_ORIGIN },
        });
        expect(form.status, action).toBe(403);
      }
      const list = await t.app.request('/api/servers', jsonRequest('GET', undefined, reader.cookie));
      expect(list.status).toBe(200);
    }
    const [row] = await t.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row).toMatchObject({ name: 'app-roles', status: 'online', lastHealthCheck: null });
  });
});
