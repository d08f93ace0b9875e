import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents, serverDocuments, servers } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Issue 23, editor linking: an item's servers (PUT, suggestions), servers named in a text, serverIds on save. */

let t: TestContext;
let editor: TestUser;
let other: TestUser;
let viewer: TestUser;
let web1: string;
let web10: string;
let db2: string;

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  other = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  const rows = await t.db
    .insert(servers)
    .values([
      { name: 'web1', hostname: 'web1.corp.example.com', ipAddress: '127.0.0.1', status: 'online' },
      { name: 'web10', hostname: 'web10.corp.example.com', ipAddress: '127.0.0.10' },
      { name: 'db2', ipAddress: '127.0.0.2', environment: 'production' },
    ])
    .returning({ id: servers.id, name: servers.name });
  const id = (name: string) => rows.find((r) => r.name === name)!.id;
  [web1, web10, db2] = [id('web1'), id('web10'), id('db2')];
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown, cookie: string | undefined = editor.cookie) =>
  t.app.request(path, jsonRequest(method, body, cookie));
const names = (list: { name: string }[]) => list.map((s) => s.name);
const links = (documentId: string) =>
  t.db.select().from(serverDocuments).where(eq(serverDocuments.documentId, documentId));
const linkEvents = (documentId: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, documentId), eq(auditLog.action, 'item.servers_linked')));
const MISSING = '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d';

describe.each([
  ['/api/documents', {}, 'document'],
  ['/api/knowledge-base', { templateType: 'build_document' }, 'build-document'],
] as const)('%s', (base, extra, documentType) => {
  const create = async (body: object = {}, cookie = editor.cookie) =>
    (
      await call(
        'POST',
        base,
        { title: 'Patch the web tier', content: 'Drain web1, then patch.', ...extra, ...body },
        cookie,
      )
    ).json();

  it('PUT /{id}/servers replaces the set, answers the item with its servers and audits the names', async () => {
    const item = await create();
    let res = await call('PUT', `${base}/${item.id}/servers`, { serverIds: [web1, db2, web1] });
    expect(res.status).toBe(200);
    let answer = await res.json();
    expect(answer.id).toBe(item.id);
    expect(names(answer.servers)).toEqual(['db2', 'web1']);
    expect(answer.servers.find((s: { name: string }) => s.name === 'web1')).toMatchObject({
      status: 'online',
      ipAddress: '127.0.0.1',
    });
    expect(answer.reviewFlags).toEqual([]);
    expect((await links(item.id)).map((l) => l.documentType)).toEqual([documentType, documentType]);

    res = await call('PUT', `${base}/${item.id}/servers`, { serverIds: [web10, db2] });
    answer = await res.json();
    expect(names(answer.servers)).toEqual(['db2', 'web10']);
    const events = await linkEvents(item.id);
    expect(events.map((e) => e.details)).toEqual(
      expect.arrayContaining([
        { added: ['db2', 'web1'], removed: [] },
        { added: ['web10'], removed: ['web1'] },
      ]),
    );
    expect(events).toHaveLength(2);

    // The same set again changes nothing and records nothing; an empty list unlinks all.
    await call('PUT', `${base}/${item.id}/servers`, { serverIds: [db2, web10] });
    expect(await linkEvents(item.id)).toHaveLength(2);
    answer = await (await call('PUT', `${base}/${item.id}/servers`, { serverIds: [] })).json();
    expect(answer.servers).toEqual([]);
    expect(await links(item.id)).toEqual([]);
    const got = await (await call('GET', `${base}/${item.id}`)).json();
    expect(got.servers).toEqual([]);
  });

  it('PUT /{id}/servers: an unknown server is 400 with a message and changes nothing; bad input is 400', async () => {
    const item = await create();
    await call('PUT', `${base}/${item.id}/servers`, { serverIds: [web1] });
    let res = await call('PUT', `${base}/${item.id}/servers`, { serverIds: [db2, MISSING] });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain(MISSING);
    expect((await links(item.id)).map((l) => l.serverId)).toEqual([web1]);
    res = await call('PUT', `${base}/${item.id}/servers`, { serverIds: ['web1'] });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('serverIds must be server ids.');
    res = await call('PUT', `${base}/${item.id}/servers`, {});
    expect(res.status).toBe(400);
  });

  it('PUT /{id}/servers: a viewer is refused (403), a restricted item of another is not found (404)', async () => {
    const item = await create();
    let res = await call('PUT', `${base}/${item.id}/servers`, { serverIds: [web1] }, viewer.cookie);
    expect(res.status).toBe(403);
    const hidden = await create({}, other.cookie);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, hidden.id));
    res = await call('PUT', `${base}/${hidden.id}/servers`, { serverIds: [web1] });
    expect(res.status).toBe(404);
    expect((await call('GET', `${base}/${hidden.id}/server-suggestions`)).status).toBe(404);
    res = await call('PUT', `${base}/${MISSING}/servers`, { serverIds: [web1] });
    expect(res.status).toBe(404);
    expect(await links(item.id)).toEqual([]);
    expect((await call('PUT', `${base}/${item.id}/servers`, { serverIds: [web1] }, '')).status).toBe(401);
  });

  it('GET /{id}/servers: the linked servers with their live state now, for readers; others get 404/401', async () => {
    const item = await create();
    let res = await call('GET', `${base}/${item.id}/servers`, undefined, viewer.cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    await call('PUT', `${base}/${item.id}/servers`, { serverIds: [web1, db2] });
    await t.db.update(servers).set({ status: 'offline', cpuUsage: 97 }).where(eq(servers.id, web1));
    res = await call('GET', `${base}/${item.id}/servers`, undefined, viewer.cookie);
    const answer = await res.json();
    expect(names(answer)).toEqual(['db2', 'web1']);
    expect(answer[1]).toMatchObject({ id: web1, status: 'offline', cpuUsage: 97, ipAddress: '127.0.0.1' });
    expect(Object.keys(answer[1]).sort()).toEqual(
      [
        'id',
        'name',
        'hostname',
        'ipAddress',
        'status',
        'environment',
        'cpuUsage',
        'memoryUsage',
        'diskUsage',
        'uptime',
        'lastHealthCheck',
        'metricsUpdatedAt',
      ].sort(),
    );
    await t.db.update(servers).set({ status: 'online', cpuUsage: 0 }).where(eq(servers.id, web1));
    const hidden = await create({}, other.cookie);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, hidden.id));
    expect((await call('GET', `${base}/${hidden.id}/servers`)).status).toBe(404);
    expect((await call('GET', `${base}/${MISSING}/servers`)).status).toBe(404);
    expect((await call('GET', `${base}/${item.id}/servers`, undefined, '')).status).toBe(401);
  });

  it('GET /{id}/server-suggestions: servers its text names that are not linked yet (readers too)', async () => {
    const item = await create({ content: 'Drain web1 (127.0.0.1), then check 127.0.0.2:5432. Not web100.' });
    let res = await call('GET', `${base}/${item.id}/server-suggestions`, undefined, viewer.cookie);
    expect(res.status).toBe(200);
    expect(names(await res.json())).toEqual(['db2', 'web1']);
    await call('PUT', `${base}/${item.id}/servers`, { serverIds: [web1] });
    res = await call('GET', `${base}/${item.id}/server-suggestions`);
    expect(names(await res.json())).toEqual(['db2']);
  });

  it('the editor page hands the island the linked servers (rendered as chips before any script runs)', async () => {
    const item = await create({ serverIds: [db2] });
    const page = base.replace('/api', '');
    const res = await t.app.request(`${page}/${item.id}/edit`, { headers: { Cookie: editor.cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('aria-label="Linked servers"');
    expect(html).toMatch(/class="tag server-chip">db2/);
    expect(html).toContain('aria-label="Remove server db2"');
  });

  it('serverIds on create and update store the links in the save', async () => {
    const item = await create({ serverIds: [web1, db2] });
    expect(names(item.servers)).toEqual(['db2', 'web1']);
    expect((await links(item.id)).every((l) => l.documentType === documentType)).toBe(true);
    const body = { title: 'Patch the web tier', content: 'Drain web1, then patch.', ...extra };
    // Left out: the links stay.
    let saved = await (await call('PUT', `${base}/${item.id}`, body)).json();
    expect(names(saved.servers)).toEqual(['db2', 'web1']);
    saved = await (await call('PUT', `${base}/${item.id}`, { ...body, serverIds: [web10] })).json();
    expect(saved.version).toBe(3);
    expect(names(saved.servers)).toEqual(['web10']);
    expect((await linkEvents(item.id)).map((e) => e.details)).toEqual(
      expect.arrayContaining([{ added: ['web10'], removed: ['db2', 'web1'] }]),
    );
    // An unknown server refuses the whole save.
    const res = await call('PUT', `${base}/${item.id}`, { ...body, title: 'Not saved', serverIds: [MISSING] });
    expect(res.status).toBe(400);
    const [row] = await t.db.select().from(documents).where(eq(documents.id, item.id));
    expect(row).toMatchObject({ title: 'Patch the web tier', version: 3 });
    const before = (await t.db.select().from(documents)).length;
    expect((await call('POST', base, { ...body, serverIds: [MISSING] })).status).toBe(400);
    expect(await t.db.select().from(documents)).toHaveLength(before);
  });
});

describe('a link takes the type of its item', () => {
  it('an edit that changes the kind of item retypes its links (serverIds left out)', async () => {
    const body = { title: 'Web tier', content: 'Steps.', serverIds: [web1] };
    const item = await (await call('POST', '/api/knowledge-base', body)).json();
    expect((await links(item.id)).map((l) => l.documentType)).toEqual(['knowledge-base']);
    await call('PUT', `/api/knowledge-base/${item.id}`, {
      title: 'Web tier',
      content: 'Steps.',
      templateType: 'work_instruction',
    });
    expect((await links(item.id)).map((l) => l.documentType)).toEqual(['work-instruction']);
  });
});

describe('POST /api/servers/mentions', () => {
  const mentions = (body: unknown, cookie: string | undefined = viewer.cookie) =>
    call('POST', '/api/servers/mentions', body, cookie);

  it('answers the servers an unsaved text names, by name, hostname or IP, less those excluded', async () => {
    let res = await mentions({ text: 'ssh web1.corp.example.com:22 then psql -h 127.0.0.2; WEB10 later' });
    expect(res.status).toBe(200);
    const found = await res.json();
    expect(names(found)).toEqual(['db2', 'web1', 'web10']);
    expect(found[0]).toMatchObject({ id: db2, environment: 'production', ipAddress: '127.0.0.2' });
    res = await mentions({ text: 'web1 and db2', exclude: [web1] });
    expect(names(await res.json())).toEqual(['db2']);
    res = await mentions({ text: 'web100 xweb1 127.0.0.100 nothing here' });
    expect(await res.json()).toEqual([]);
  });

  it('refuses the signed-out (401), a text over 1 MiB and bad input (400)', async () => {
    expect((await mentions({ text: 'web1' }, '')).status).toBe(401);
    let res = await mentions({ text: `web1 ${'x'.repeat(1024 * 1024)}` });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('text must be at most 1 MiB.');
    res = await mentions({ text: 'web1', exclude: ['web1'] });
    expect(res.status).toBe(400);
    expect((await mentions({})).status).toBe(400);
  });
});
