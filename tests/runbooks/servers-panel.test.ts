import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, serverDocuments } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Issue 23: the Servers panel on the read page and its fragment route, which the open page polls. */

let t: TestContext;
let owner: TestUser;
let other: TestUser;
let serverId: string;
let kbId: string;
let docId: string;
let bareId: string;

const call = (method: string, path: string, body?: unknown, cookie: string | undefined = owner.cookie) =>
  t.app.request(path, jsonRequest(method, body, cookie));
const get = (path: string, user: TestUser | null = owner) =>
  t.app.request(path, { headers: user ? { Cookie: user.cookie } : {} });

const link = (documentId: string, documentType: string) =>
  t.db.insert(serverDocuments).values({ serverId, documentId, documentType });

beforeAll(async () => {
  t = await createTestApp();
  owner = await createSignedInUser(t.db, { role: 'editor' });
  other = await createSignedInUser(t.db, { role: 'editor' });
  serverId = (await (await call('POST', '/api/servers', { name: 'db1', environment: 'staging' })).json()).id;
  kbId = (await (await call('POST', '/api/knowledge-base', { title: 'Failover db1', content: 'Steps' })).json()).id;
  docId = (await (await call('POST', '/api/documents', { title: 'db1 contract', content: 'Terms' })).json()).id;
  bareId = (await (await call('POST', '/api/knowledge-base', { title: 'No servers', content: 'None' })).json()).id;
  await link(kbId, 'work-instruction');
  await link(docId, 'document');
});
afterAll(() => t.close());

describe('the Servers panel (issue 23)', () => {
  it('the read page shows each linked server with its live state, and the address that refreshes it', async () => {
    const metrics = await call('PUT', `/api/servers/${serverId}/metrics`, {
      status: 'warning',
      cpuUsage: 41.6,
      memoryUsage: 52,
      diskUsage: 63,
      uptime: 3 * 86400 + 4 * 3600,
    });
    expect(metrics.status).toBe(200);
    const page = await (await get(`/knowledge-base/${kbId}`)).text();
    expect(page).toContain(`data-refresh-url="/knowledge-base/${kbId}/servers-panel" data-poll-ms="30000"`);
    expect(page).toContain(`<a href="/infrastructure/${serverId}">db1</a>`);
    expect(page).toContain('<span class="badge badge--yellow">warning</span>');
    expect(page).toContain('staging</span>');
    for (const fact of ['<dd>42%</dd>', '<dd>52%</dd>', '<dd>63%</dd>', '<dd>3d 4h</dd>']) expect(page).toContain(fact);
  });

  it('the fragment answers the panel alone, fresh (no-store), for both spaces', async () => {
    const metrics = { cpuUsage: 1, memoryUsage: 2, diskUsage: 3, uptime: 60, status: 'offline' };
    expect((await call('PUT', `/api/servers/${serverId}/metrics`, metrics)).status).toBe(200);
    for (const path of [`/knowledge-base/${kbId}/servers-panel`, `/documents/${docId}/servers-panel`]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html.startsWith('<section id="servers-panel"')).toBe(true);
      expect(html).toContain('<span class="badge badge--red">offline</span>');
      expect(html).not.toContain('<html');
    }
  });

  it('has no panel (so nothing to poll) when no server is linked; the fragment is then empty', async () => {
    const page = await (await get(`/knowledge-base/${bareId}`)).text();
    expect(page).not.toContain('servers-panel');
    // One who may edit it is shown where to link servers; a viewer is not.
    expect(page).toContain(`No server linked. <a href="/knowledge-base/${bareId}/edit">Link servers</a>`);
    const viewer = await createSignedInUser(t.db, { role: 'viewer' });
    expect(await (await get(`/knowledge-base/${bareId}`, viewer)).text()).not.toContain('No server linked');
    expect(await (await get(`/knowledge-base/${kbId}`)).text()).not.toContain('No server linked');
    const res = await get(`/knowledge-base/${bareId}/servers-panel`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('is 401 signed out, and 404 for a restricted item the reader may not read or an item of the other space', async () => {
    expect((await get(`/knowledge-base/${kbId}/servers-panel`, null)).status).toBe(401);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, docId));
    expect((await get(`/documents/${docId}/servers-panel`, other)).status).toBe(404);
    expect((await get(`/documents/${docId}/servers-panel`, owner)).status).toBe(200);
    expect((await get(`/documents/${kbId}/servers-panel`)).status).toBe(404);
    expect((await get('/knowledge-base/3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d/servers-panel')).status).toBe(404);
  });
});
