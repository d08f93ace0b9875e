import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolCall } from '../../src/ai/llm-tools';
import { aiInteractions, auditLog } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { startFakeOpenAI, type FakeOpenAI } from '../ai/fake-openai';
import { readersOf, seedAccessWorld, seedLinkedServer, strangersOf, type AccessWorld } from './fixture';

/**
 * Issue 21, "No leak anywhere": Ops AI quotes only the items the asker may read, in the built-in engine's answers
 * (API, stream and the no-JavaScript page) and in every tool result the LLM engine sends to the model. Issue 26:
 * the same for an item read by id and for the documents linked to a server (the MCP server: tests/access/mcp.test.ts).
 */

const AUDIT_DENIED = 'Only administrators and auditors can read the audit log.';

/** Nothing of the restricted item: its title, a word only its content has, its id. */
function expectNoSecret(text: string, w: AccessWorld, who: string) {
  expect(text, who).not.toContain(w.secret.title);
  expect(text, who).not.toContain('PASSPHRASE');
  expect(text, who).not.toContain(w.secret.id);
}

async function ask(t: TestContext, u: TestUser, query: string): Promise<{ response: string; interactionId: string }> {
  const res = await t.app.request('/api/ai/ask', jsonRequest('POST', { query, conversationHistory: [] }, u.cookie));
  expect(res.status).toBe(200);
  return res.json();
}

describe('built-in engine', () => {
  let t: TestContext;
  let w: AccessWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seedAccessWorld(t.db);
    await seedLinkedServer(t.db, w);
    await t.db.insert(auditLog).values({
      actorId: w.owner.id,
      action: 'knowledge.create',
      entityType: 'document',
      entityId: w.secret.id,
    });
  });
  afterAll(() => t?.close());

  const questions = ['Find documentation about quasar', 'Show recent documentation', 'passphrase vault'];

  it('answers those who may not read a restricted item without it (search, recent, free text), and stores no trace', async () => {
    for (const [who, u] of strangersOf(w)) {
      for (const q of questions) {
        const { response, interactionId } = await ask(t, u, q);
        expectNoSecret(response, w, `${who}: ${q}`);
        const [row] = await t.db.select().from(aiInteractions).where(eq(aiInteractions.id, interactionId));
        expectNoSecret(JSON.stringify(row), w, `${who}: ${q} (stored)`);
      }
      expect((await ask(t, u, 'Find documentation about quasar')).response, who).toContain(w.open.title);
      expect((await ask(t, u, 'Show recent documentation')).response, who).toContain(w.open.title);
    }
  });

  it('quotes it to the admin, the owner and a user it is shared with', async () => {
    for (const [who, u] of readersOf(w)) {
      for (const q of questions) expect((await ask(t, u, q)).response, `${who}: ${q}`).toContain(w.secret.title);
    }
  });

  it('leaves it out of the streamed answer and the /ai page without JavaScript', async () => {
    const u = w.strangers.editor;
    const stream = await t.app.request(
      '/api/ai/ask-stream',
      jsonRequest('POST', { query: 'Find documentation about quasar' }, u.cookie),
    );
    const events = await stream.text();
    expect(events).toContain(w.open.title);
    expectNoSecret(events, w, 'stream');
    const page = await t.app.request('/ai', {
      method: 'POST',
      headers: { Cookie: u.cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: 'Find documentation about quasar' }).toString(),
    });
    const html = await page.text();
    expect(html).toContain(w.open.title);
    expectNoSecret(html, w, '/ai page');
    expect((await ask(t, w.owner, 'Find documentation about quasar')).response).toContain(w.secret.title);
  });

  it("lists a server's linked documents without the restricted one for those who may not read it", async () => {
    for (const [who, u] of strangersOf(w)) {
      const { response } = await ask(t, u, 'Tell me about vault-01');
      expect(response, who).toContain(w.open.title);
      expectNoSecret(response, w, who);
    }
    for (const [who, u] of readersOf(w))
      expect((await ask(t, u, 'Tell me about vault-01')).response, who).toContain(w.secret.title);
  });

  it('reads the audit log only for admins and auditors', async () => {
    const auditor = await createSignedInUser(t.db, { role: 'auditor' });
    expect((await ask(t, auditor, 'Check system logs')).response).toContain('knowledge.create');
    for (const u of [w.strangers.editor, w.strangers.viewer, w.owner]) {
      expect((await ask(t, u, 'Check system logs')).response).toBe(AUDIT_DENIED);
    }
  });

  it('runs every tool that reads items or the audit log as the asker (the LLM tools, called directly)', async () => {
    const asStranger = { reader: { id: w.strangers.viewer.id, role: 'viewer' }, timeZone: 'UTC' };
    const asOwner = { reader: { id: w.owner.id, role: 'editor' }, timeZone: 'UTC' };
    const calls: [string, string][] = [
      ['search_documents', '{"query":"quasar"}'],
      ['search_documents', '{"query":"passphrase"}'],
      ['recent_documents', '{}'],
      ['get_document', JSON.stringify({ id: w.secret.id })],
      ['get_server', '{"name_or_id":"vault-01"}'],
    ];
    for (const [name, args] of calls) {
      const hidden = await runToolCall(t.db, name, args, asStranger);
      expectNoSecret(hidden.content, w, `${name} ${args}`);
      expect((await runToolCall(t.db, name, args, asOwner)).content, `${name} ${args}`).toContain(w.secret.title);
    }
    const audit = await runToolCall(t.db, 'recent_audit_events', '{}', asStranger);
    expect(audit.content).toContain(AUDIT_DENIED);
    expect(audit.content).not.toContain(w.secret.id);
  });
});

describe('LLM engine (a local fake model)', () => {
  let t: TestContext;
  let w: AccessWorld;
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ OPENAI_API_KEY: 'sk-test-key', OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-model' });
    w = await seedAccessWorld(t.db);
    await seedLinkedServer(t.db, w);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Asks, then returns the answer and every tool result the model was sent. */
  async function askModel(u: TestUser, query: string): Promise<{ response: string; toolResults: string }> {
    fake.requests.length = 0;
    const { response } = await ask(t, u, query);
    const toolResults = fake.requests
      .flatMap((r) => r.body.messages)
      .filter((m) => m.role === 'tool')
      .map((m) => m.content ?? '')
      .join('\n');
    expect(toolResults, query).not.toBe('');
    return { response, toolResults };
  }

  const questions = ['find docs: quasar', 'find docs: passphrase', 'recent docs please'];

  it('never sends the model a restricted item the asker may not read', async () => {
    for (const [who, u] of strangersOf(w)) {
      for (const q of questions) {
        const { response, toolResults } = await askModel(u, q);
        expectNoSecret(toolResults, w, `${who}: ${q} (tool results)`);
        expectNoSecret(response, w, `${who}: ${q}`);
      }
      expect((await askModel(u, 'find docs: quasar')).toolResults, who).toContain(w.open.title);
    }
  });

  it("never sends it read by id or among a server's linked documents", async () => {
    for (const [who, u] of strangersOf(w)) {
      const byId = await askModel(u, `read doc: ${w.secret.id}`);
      expect(byId.toolResults, who).toContain('"untrusted_data":null');
      expectNoSecret(byId.toolResults, w, `${who}: by id`);
      expectNoSecret(byId.response, w, `${who}: by id (answer)`);
      const server = await askModel(u, 'server: vault-01');
      expect(server.toolResults, who).toContain(w.open.title);
      expectNoSecret(server.toolResults, w, `${who}: server`);
    }
    for (const [who, u] of readersOf(w)) {
      expect((await askModel(u, `read doc: ${w.secret.id}`)).toolResults, who).toContain('PASSPHRASE');
      expect((await askModel(u, 'server: vault-01')).toolResults, who).toContain(w.secret.title);
    }
  });

  it('sends it for the admin, the owner and a user it is shared with', async () => {
    for (const [who, u] of readersOf(w)) {
      for (const q of questions) {
        const { toolResults } = await askModel(u, q);
        expect(toolResults, `${who}: ${q}`).toContain(w.secret.title);
      }
    }
  });

  it('answers the audit-log tool with a refusal for those who may not read the audit log', async () => {
    const denied = await askModel(w.strangers.editor, 'show the audit log');
    expect(denied.toolResults).toContain(AUDIT_DENIED);
    const admin = await askModel(w.admin, 'show the audit log');
    expect(admin.toolResults).toContain('untrusted_data');
    expect(admin.toolResults).not.toContain(AUDIT_DENIED);
  });
});
