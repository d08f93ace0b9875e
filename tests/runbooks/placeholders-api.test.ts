import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDocuments } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Issue 23: placeholders filled wherever content is rendered for a signed-in reader, hidden on a share link. */

let t: TestContext;
let editor: TestUser;
let serverId: string;
let itemId: string;

const CONTENT = [
  'Log in to {{server:WEB1.name}}.',
  '',
  '```sh',
  'ssh admin@{{ server:web1.ipAddress }}',
  '```',
  '',
  'Also {{server:web9.ipAddress}} and {{server:web1.colour}}.',
].join('\n');

const call = (method: string, path: string, body?: unknown, cookie: string | undefined = editor.cookie) =>
  t.app.request(path, jsonRequest(method, body, cookie));

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  const server = await (
    await call('POST', '/api/servers', { name: 'web1', ipAddress: '127.0.0.1', status: 'maintenance' })
  ).json();
  serverId = server.id;
  const item = await (await call('POST', '/api/knowledge-base', { title: 'Patch web1', content: CONTENT })).json();
  itemId = item.id;
  await t.db.insert(serverDocuments).values({ serverId, documentId: itemId, documentType: 'knowledge-base' });
});
afterAll(() => t.close());

const expectFilled = (html: string, ip: string) => {
  expect(html).toContain('Log in to web1.');
  expect(html).toContain(`ssh admin@${ip}`);
  expect(html).toContain('⟦unknown server "web9"⟧');
  expect(html).toContain('⟦unknown field "colour"⟧');
  expect(html).not.toContain('{{');
};

const renameIp = (ipAddress: string) => call('PUT', `/api/servers/${serverId}`, { name: 'web1', ipAddress });

describe('placeholders in the API and pages (issue 23)', () => {
  it('item JSON keeps the raw content; ?include=html fills it', async () => {
    const raw = await (await call('GET', `/api/knowledge-base/${itemId}`)).json();
    expect(raw.content).toBe(CONTENT);
    expect(raw.html).toBeUndefined();
    const withHtml = await (await call('GET', `/api/knowledge-base/${itemId}?include=html`)).json();
    expect(withHtml.content).toBe(CONTENT);
    expectFilled(withHtml.html, '127.0.0.1');
  });

  it("the editor's Preview fills unsaved text with the live values", async () => {
    const res = await call('POST', '/api/markdown/render', { content: CONTENT });
    expect(res.status).toBe(200);
    expectFilled((await res.json()).html, '127.0.0.1');
  });

  it('the read page shows a changed value at once (the rendered content is kept per filled value)', async () => {
    const page = () => t.app.request(`/knowledge-base/${itemId}`, { headers: { Cookie: editor.cookie } });
    expectFilled(await (await page()).text(), '127.0.0.1');
    expect((await renameIp('127.0.0.2')).status).toBe(200);
    const after = await (await page()).text();
    expectFilled(after, '127.0.0.2');
    // The old address is left only in the review flag the change raised ("IP address changed 127.0.0.1 → 127.0.0.2").
    expect(after).not.toContain('ssh admin@127.0.0.1');
    expect(after).toContain('127.0.0.1 → 127.0.0.2');
    const html = (await (await call('GET', `/api/knowledge-base/${itemId}?include=html`)).json()).html;
    expect(html).toContain('ssh admin@127.0.0.2');
  });

  it('a share link shows no server facts, only that they are hidden', async () => {
    const res = await call('POST', `/api/knowledge-base/${itemId}/shares`, { link: true });
    expect(res.status).toBe(201);
    const path = new URL((await res.json()).url).pathname;
    const shared = await (await t.app.request(path)).text();
    expect(shared).toContain('Log in to ⟦server details hidden⟧.');
    expect(shared).toContain('ssh admin@⟦server details hidden⟧');
    expect(shared).not.toContain('127.0.0.');
    expect(shared).not.toContain('web9');
    expect(shared).not.toContain('{{');
  });
});
