import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolCall } from '../../src/ai/llm-tools';
import { aiInteractions, auditLog, documents } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { readersOf, seedAccessWorld, seedLinkedServer, strangersOf, type AccessWorld } from './fixture';

/**
 * Issue 26: a shared Ops AI conversation opens for another user only while they may read every source its answers
 * cite, re-checked each time it is opened (JSON API and the /ai/c/{id} page). Anyone else gets the 404 of a
 * conversation that does not exist, never its text.
 */

let t: TestContext;
let w: AccessWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await seedAccessWorld(t.db);
  await seedLinkedServer(t.db, w);
  await t.db.insert(auditLog).values({ actorId: w.admin.id, action: 'server.create', entityType: 'server' });
});
afterAll(() => t?.close());

async function ask(u: TestUser, query: string, conversationId?: string) {
  const res = await t.app.request('/api/ai/ask', jsonRequest('POST', { query, conversationId }, u.cookie));
  expect(res.status).toBe(200);
  return (await res.json()) as { response: string; conversationId: string; interactionId: string };
}

async function share(u: TestUser, id: string, shared = true) {
  const res = await t.app.request(`/api/ai/conversations/${id}/share`, jsonRequest('POST', { shared }, u.cookie));
  expect(res.status).toBe(200);
}

/** The conversation as `u` opens it: the JSON API and the page. */
async function open(u: TestUser, id: string) {
  const api = await t.app.request(`/api/ai/conversations/${id}`, { headers: { Cookie: u.cookie } });
  const page = await t.app.request(`/ai/c/${id}`, { headers: { Cookie: u.cookie } });
  expect(page.status, 'page and API agree').toBe(api.status);
  return { status: api.status, body: await api.text(), html: await page.text() };
}

/** What a conversation that does not exist answers. */
let missing: { body: string };
beforeAll(async () => {
  missing = await open(w.strangers.viewer, '00000000-0000-4000-8000-000000000000');
});

function expectHidden(seen: { status: number; body: string; html: string }, who: string) {
  expect(seen.status, who).toBe(404);
  expect(seen.body, who).toBe(missing.body);
  for (const text of [seen.body, seen.html]) {
    expect(text, who).not.toContain(w.secret.title);
    expect(text, who).not.toContain('Find documentation about quasar');
  }
}

describe('a shared conversation that cites a restricted item', () => {
  let id: string;
  beforeAll(async () => {
    const answer = await ask(w.owner, 'Find documentation about quasar');
    expect(answer.response).toContain(w.secret.title);
    id = answer.conversationId;
    await share(w.owner, id);
  });

  it('records the cited items with the exchange', async () => {
    const [row] = await t.db.select().from(aiInteractions).where(eq(aiInteractions.conversationId, id));
    expect((row.context as { sources: { items: string[] } }).sources.items).toEqual(
      expect.arrayContaining([w.secret.id, w.open.id]),
    );
  });

  it('opens for its owner, an admin and a user the item is shared with', async () => {
    for (const [who, u] of readersOf(w)) {
      const seen = await open(u, id);
      expect(seen.status, who).toBe(200);
      expect(seen.html, who).toContain(w.secret.title);
      expect(JSON.parse(seen.body).messages[0].response, who).toContain(w.secret.title);
    }
  });

  it('is 404, like a missing conversation, for those who may not read the item (revoked and expired shares too)', async () => {
    for (const [who, u] of strangersOf(w)) expectHidden(await open(u, id), who);
  });

  it('is re-checked when opened: a share given later opens it, another source made restricted closes it again', async () => {
    const late = await createSignedInUser(t.db, { role: 'viewer' });
    expectHidden(await open(late, id), 'before the share');
    const share = await t.app.request(
      `/api/knowledge-base/${w.secret.id}/shares`,
      jsonRequest('POST', { userId: late.id, permission: 'read' }, w.owner.cookie),
    );
    expect(share.status).toBeLessThan(300);
    expect((await open(late, id)).status).toBe(200);
    await t.db
      .update(documents)
      .set({ visibility: 'restricted', ownerId: w.owner.id })
      .where(eq(documents.id, w.open.id));
    // The open item is now restricted too (and not shared with them): one unreadable source is enough.
    expectHidden(await open(late, id), 'after the open item became restricted');
    await t.db.update(documents).set({ visibility: 'everyone' }).where(eq(documents.id, w.open.id));
  });
});

describe('what else decides', () => {
  it('answers that cite only what everyone reads (servers) open for every signed-in user once shared', async () => {
    const { conversationId } = await ask(w.owner, 'List all servers with their IP addresses');
    expectHidden(await open(w.strangers.viewer, conversationId), 'not shared yet');
    await share(w.owner, conversationId);
    for (const [who, u] of strangersOf(w)) expect((await open(u, conversationId)).status, who).toBe(200);
  });

  it('a follow-up that cites the restricted item hides the whole conversation from those who may not read it', async () => {
    const first = await ask(w.owner, 'List all servers with their IP addresses');
    await share(w.owner, first.conversationId);
    expect((await open(w.strangers.editor, first.conversationId)).status).toBe(200);
    await ask(w.owner, 'Tell me about vault-01', first.conversationId); // its linked documents: the secret one
    expectHidden(await open(w.strangers.editor, first.conversationId), 'after the follow-up');
    expect((await open(w.shared, first.conversationId)).status).toBe(200);
  });

  it('a cited item deleted since counts as unreadable (its owner still sees the conversation)', async () => {
    const author = await createSignedInUser(t.db, { role: 'editor' });
    const [doc] = await t.db
      .insert(documents)
      .values({
        space: 'knowledge',
        title: 'Zeppelin hangar checklist',
        content: 'zeppelin',
        authorId: author.id,
        ownerId: author.id,
        isPublished: true,
      })
      .returning({ id: documents.id });
    const { conversationId, response } = await ask(author, 'Find documentation about zeppelin');
    expect(response).toContain('Zeppelin hangar checklist');
    await share(author, conversationId);
    expect((await open(w.strangers.viewer, conversationId)).status).toBe(200);
    await t.db.update(documents).set({ deletedAt: new Date() }).where(eq(documents.id, doc.id));
    expect((await open(w.strangers.viewer, conversationId)).status).toBe(404);
    expect((await open(author, conversationId)).status).toBe(200);
  });

  it('answers from the audit log open only for those who may read it (admins and auditors)', async () => {
    const { conversationId, response } = await ask(w.admin, 'Check system logs');
    expect(response).toContain('server.create');
    await share(w.admin, conversationId);
    const auditor = await createSignedInUser(t.db, { role: 'auditor' });
    expect((await open(auditor, conversationId)).status).toBe(200);
    for (const u of [w.owner, w.strangers.viewer]) expect((await open(u, conversationId)).status).toBe(404);
  });

  it("the LLM engine's tool calls record what they returned as the asker could read it", async () => {
    const asOwner = { reader: { id: w.owner.id, role: 'editor' }, timeZone: 'UTC' };
    const asStranger = { reader: { id: w.strangers.viewer.id, role: 'viewer' }, timeZone: 'UTC' };
    const byId = JSON.stringify({ id: w.secret.id });
    expect((await runToolCall(t.db, 'get_document', byId, asOwner)).sources.items).toEqual([w.secret.id]);
    expect((await runToolCall(t.db, 'get_document', byId, asStranger)).sources.items).toEqual([]);
    const server = await runToolCall(t.db, 'get_server', '{"name_or_id":"vault-01"}', asOwner);
    expect(server.sources.items).toEqual(expect.arrayContaining([w.secret.id, w.open.id]));
    expect(server.sources.servers).toHaveLength(1);
    expect((await runToolCall(t.db, 'recent_audit_events', '{}', asStranger)).sources.auditLog).toBe(false);
    expect(
      (await runToolCall(t.db, 'recent_audit_events', '{}', { ...asOwner, reader: { id: w.admin.id, role: 'admin' } }))
        .sources.auditLog,
    ).toBe(true);
  });
});
