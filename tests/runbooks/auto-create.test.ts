import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents, serverDocuments, servers } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Issue 23: Auto Create KB offers the servers the pasted notes name and links those the user keeps ticked. */

let t: TestContext;
let editor: TestUser;
let dc01: string;
let dc02: string;

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  const rows = await t.db
    .insert(servers)
    .values([
      { name: 'dc01', ipAddress: '127.1.0.1' },
      { name: 'dc02', hostname: 'dc02.corp.example', ipAddress: '127.1.0.2' },
      { name: 'dc010', ipAddress: '127.1.0.10' },
    ])
    .returning({ id: servers.id, name: servers.name });
  [dc01, dc02] = ['dc01', 'dc02'].map((n) => rows.find((r) => r.name === n)!.id);
});
afterAll(() => t.close());

const post = (path: string, body: unknown) => t.app.request(path, jsonRequest('POST', body, editor.cookie));
const NOTES = `restart dns service on dc01
users reported that nslookup fails after patching.
Restart-Service DNS
then check the replica: nslookup intranet.corp.example 127.1.0.2`;

describe('Auto Create KB and servers', () => {
  it('the preview answers the servers the notes name (serverIds and their summaries)', async () => {
    const res = await post('/api/ai/auto-create-kb-preview', { content: NOTES });
    expect(res.status).toBe(200);
    const preview = await res.json();
    expect(preview.title).toBeTruthy();
    expect(preview.serverIds.sort()).toEqual([dc01, dc02].sort());
    expect(preview.servers.map((s: { name: string }) => s.name)).toEqual(['dc01', 'dc02']);
    expect(preview.tags).toEqual(expect.arrayContaining(['dc01', 'dc02'])); // inventory names are tag vocabulary
    expect(preview.tags).not.toContain('dc010');
    const none = await (await post('/api/ai/auto-create-kb-preview', { content: 'restart dns on dc0100' })).json();
    expect(none.serverIds).toEqual([]);
  });

  it('saving links the servers left ticked; an unknown one is 400 and saves nothing', async () => {
    const preview = await (await post('/api/ai/auto-create-kb-preview', { content: NOTES })).json();
    const { servers: _offered, serverIds: _all, ...fields } = preview;
    const res = await post('/api/ai/auto-create-kb', { ...fields, serverIds: [dc02] });
    expect(res.status).toBe(201);
    const item = await res.json();
    expect(item.servers.map((s: { name: string }) => s.name)).toEqual(['dc02']);
    const links = await t.db.select().from(serverDocuments).where(eq(serverDocuments.documentId, item.id));
    expect(links).toMatchObject([{ serverId: dc02, documentType: 'knowledge-base' }]);
    const [event] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, item.id), eq(auditLog.action, 'item.servers_linked')));
    expect(event.details).toEqual({ added: ['dc02'], removed: [] });

    const before = (await t.db.select().from(documents)).length;
    const bad = await post('/api/ai/auto-create-kb', {
      ...fields,
      serverIds: ['3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d'],
    });
    expect(bad.status).toBe(400);
    expect(await t.db.select().from(documents)).toHaveLength(before);
    const plain = await (await post('/api/ai/auto-create-kb', fields)).json();
    expect(plain.servers).toEqual([]);
  });
});
