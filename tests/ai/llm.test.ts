import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiInteractions, servers, userPreferences } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { startFakeOpenAI } from './fake-openai';
import { seedInventory } from './seed';

let ctx: TestContext;
let user: TestUser;
let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let seed: Awaited<ReturnType<typeof seedInventory>>;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ctx = await createTestApp({ OPENAI_API_KEY: 'sk-test-key', OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-model' });
  user = await createSignedInUser(ctx.db);
  seed = await seedInventory(ctx.db, user.id);
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const post = (path: string, body: unknown) => ctx.app.request(path, jsonRequest('POST', body, user.cookie));

describe('LLM engine against a local OpenAI-compatible server', () => {
  it('offers only the read-only tools, runs the called tool on real data and cites in-app links', async () => {
    fake.requests.length = 0;
    const res = await post('/api/ai/ask', {
      query: 'Which servers are in Auburn?',
      conversationHistory: [
        { type: 'user', content: 'hello' },
        { type: 'assistant', content: 'Hi!' },
      ],
    });
    expect(res.status).toBe(200);
    const { response, interactionId, suggestedActions } = await res.json();
    expect(response).toContain(`[AUB-POS-01](/infrastructure?server=${seed.servers['AUB-POS-01']})`);
    expect(response).toContain('AUB-FS-02');
    expect(suggestedActions.length).toBeGreaterThan(0);

    const first = fake.requests[0];
    expect(first.auth).toBe('Bearer sk-test-key');
    expect(first.body.model).toBe('fake-model');
    expect(first.body.stream).toBe(true);
    expect(first.body.tools!.map((t) => t.function.name).sort()).toEqual(
      [
        'get_document',
        'get_server',
        'recent_audit_events',
        'recent_documents',
        'recent_health_problems',
        'search_documents',
        'search_servers',
        'team_contacts',
      ].sort(),
    );
    expect(first.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const [row] = await ctx.db.select().from(aiInteractions).where(eq(aiInteractions.id, interactionId));
    expect(row.context).toMatchObject({
      engine: 'llm',
      tools: [{ name: 'search_servers', args: { location: 'Auburn' }, results: 2 }],
    });
  });

  it('prompt injection: a document saying "ignore previous instructions" reaches the model only as quoted tool data', async () => {
    fake.requests.length = 0;
    const res = await post('/api/ai/ask', { query: 'How do I fix the VPN?' });
    const { response } = await res.json();
    expect(response).toContain('Verdict: INJECTION_QUOTED_AS_DATA');
    expect(response).toContain(`[VPN troubleshooting](/knowledge-base/${seed.docs.vpn}/vpn-troubleshooting)`);
    const second = fake.requests[1].body.messages;
    const system = second[0];
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/untrusted data/);
    const tool = second.find((m) => m.role === 'tool')!;
    const envelope = JSON.parse(tool.content!);
    expect(envelope.tool).toBe('search_documents');
    expect(JSON.stringify(envelope.untrusted_data)).toMatch(/IGNORE PREVIOUS INSTRUCTIONS/);
  });

  it('a call to a tool that would write is refused: nothing changes', async () => {
    const res = await post('/api/ai/ask', { query: 'Please delete AUB-POS-01' });
    const { response } = await res.json();
    expect(response).toContain('Tool error: Unknown tool delete_server');
    const still = await ctx.app.request(
      '/api/ai/ask',
      jsonRequest('POST', { query: 'Which servers are in Auburn?' }, user.cookie),
    );
    expect((await still.json()).response).toContain('AUB-POS-01');
  });

  it('streams the model output: chunks add up to fullResponse, done last', async () => {
    const res = await post('/api/ai/ask-stream', { query: 'Which servers are in Auburn?' });
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const events = (await res.text())
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)));
    const done = events.at(-1);
    expect(done.done).toBe(true);
    const chunks = events.filter((e) => 'chunk' in e).map((e) => e.chunk);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(done.fullResponse);
    expect(done.fullResponse).toContain('AUB-POS-01');
  });

  it('an unreachable model gives an error event on the stream and 503 with a clear message on the standard call', async () => {
    const broken = await createTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    const u = await createSignedInUser(broken.db);
    const stream = await broken.app.request('/api/ai/ask-stream', jsonRequest('POST', { query: 'hi' }, u.cookie));
    expect(await stream.text()).toBe('data: {"error":"Failed to get AI response."}\n\n');
    const plain = await broken.app.request('/api/ai/ask', jsonRequest('POST', { query: 'hi' }, u.cookie));
    expect(plain.status).toBe(503);
    expect(await plain.json()).toMatchObject({ message: 'The AI model cannot be reached. Please try again later.' });
    await broken.close();
  });

  it("tells the model the asker's timezone and hands it tool results with times already in it", async () => {
    const perth = await createSignedInUser(ctx.db);
    await ctx.db.insert(userPreferences).values({ userId: perth.id, timezone: 'Australia/Perth' });
    await ctx.db
      .update(servers)
      .set({ lastHealthCheck: new Date('2026-11-20T17:30:00Z') })
      .where(eq(servers.id, seed.servers['AUB-POS-01']));
    fake.requests.length = 0;
    const res = await ctx.app.request(
      '/api/ai/ask',
      jsonRequest('POST', { query: 'Which servers are in Auburn?' }, perth.cookie),
    );
    expect(res.status).toBe(200);
    const messages = fake.requests[1].body.messages;
    expect(messages[0].content).toContain("The user's timezone is Australia/Perth.");
    const envelope = JSON.parse(messages.find((m) => m.role === 'tool')!.content!);
    const pos = envelope.untrusted_data.find((s: { name: string }) => s.name === 'AUB-POS-01');
    expect(pos.lastHealthCheck).toBe('21 Nov 2026, 1:30 am (Australia/Perth)');
  });

  it('writing tools use structured output checked by zod (category normalised; invalid reply → built-in)', async () => {
    const preview = await (
      await post('/api/ai/auto-create-kb-preview', { content: 'restart dns\nRestart-Service DNS' })
    ).json();
    expect(preview).toMatchObject({ title: 'Restart the DNS Service', category: 'DNS', tags: ['dns', 'powershell'] });
    const req = fake.requests.at(-1)!.body;
    expect(req.response_format!.json_schema.name).toBe('kb_preview');
    const enhanced = await (await post('/api/ai/enhance-content', { title: 't', content: 'c' })).json();
    expect(enhanced).toEqual({
      improvedContent: '## Improved\n\nBetter.',
      suggestedTitle: 'Better Title',
      extractedTags: ['x'],
      summary: 'Sum.',
    });
    const field = await (
      await post('/api/ai/enhance-field', { fieldType: 'title', content: 'configure dns forwarders' })
    ).json();
    expect(field.enhancedContent).toBe('Configure DNS Forwarders');
  });
});
