import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTO_CREATE_COUNTER, MAX_ANSWER_CHARS, MAX_TOOL_CALLS_PER_ROUND } from '../../src/ai/shared';
import type { Engine } from '../../src/ai/engine';
import { askStream } from '../../src/ai/service';
import { aiInteractions } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { startFakeOpenAI, type FakeMode, type FakeOpenAI } from './fake-openai';
import { seedInventory } from './seed';

/** Ops AI against a misbehaving OpenAI-compatible model (issue 17 items 10–13), with test-size deadlines. */

// The drip fake sends a chunk every 50 ms: an idle timeout of 8 gaps leaves room for a loaded machine's pauses.
const LIMITS = { idleMs: 400, deadlineMs: 1500, toolResultChars: 3000 };
const MODEL_ENV = { OPENAI_API_KEY: 'sk-test-key', OPENAI_MODEL: 'fake-model' };
const TIMEOUT_MESSAGE = 'The AI model did not answer in time. Please try again.';

let fake: FakeOpenAI;
let ctx: TestContext;
let user: TestUser;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ctx = await createTestApp({ ...MODEL_ENV, OPENAI_BASE_URL: fake.url });
  Object.assign(ctx.config.openai!, { limits: LIMITS });
  user = await createSignedInUser(ctx.db);
  await seedInventory(ctx.db, user.id);
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.mode = 'normal';
  fake.requests.length = 0;
});

const post = (path: string, body: unknown) => ctx.app.request(path, jsonRequest('POST', body, user.cookie));
const question = { query: 'Which servers are in Auburn?' };

async function sseEvents(res: Response) {
  return (await res.text())
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map(
      (l) =>
        JSON.parse(l.slice(6)) as {
          chunk?: string;
          done?: boolean;
          fullResponse?: string;
          interactionId?: string;
          error?: string;
        },
    );
}

/** Polls `check` until it holds or `ms` pass; returns its last value. */
async function eventually(check: () => boolean | undefined, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return Boolean(check());
}

const stalls: FakeMode[] = ['stall-before-headers', 'stall-after-chunk', 'keep-alive-after-chunk'];

describe('item 10: a stalled model stream has deadlines', () => {
  it.each(stalls)(
    '%s: /ask answers 504 once the model is silent for the idle timeout, and the model call is closed',
    async (mode) => {
      fake.mode = mode;
      const started = Date.now();
      const res = await post('/api/ai/ask', question);
      const took = Date.now() - started;
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({ message: TIMEOUT_MESSAGE });
      expect(took).toBeGreaterThanOrEqual(LIMITS.idleMs - 20);
      expect(took).toBeLessThan(LIMITS.deadlineMs);
      expect(await eventually(() => fake.requests[0]?.closed)).toBe(true);
    },
    5000,
  );

  it.each(stalls)(
    '%s: /ask-stream ends with an error event and closes',
    async (mode) => {
      fake.mode = mode;
      const res = await post('/api/ai/ask-stream', question);
      const events = await sseEvents(res);
      expect(events.at(-1)).toEqual({ error: 'Failed to get AI response.' });
      expect(events.some((e) => e.done)).toBe(false);
      expect(await eventually(() => fake.requests[0]?.closed)).toBe(true);
    },
    5000,
  );

  it('a model that keeps sending but never finishes is stopped by the total deadline (504; the stream ends with an error)', async () => {
    fake.mode = 'drip';
    const started = Date.now();
    const res = await post('/api/ai/ask', question);
    expect(res.status).toBe(504);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMITS.deadlineMs - 20);
    expect(await eventually(() => fake.requests[0]?.closed)).toBe(true);

    const stream = await sseEvents(await post('/api/ai/ask-stream', question));
    expect(stream.filter((e) => e.chunk).length).toBeGreaterThan(3);
    expect(stream.at(-1)).toEqual({ error: 'Failed to get AI response.' });
  }, 8000);

  it('the stream sends keep-alive comments while an answer is being prepared (the browser idle deadline counts on them)', async () => {
    const slow: Engine = {
      name: 'llm',
      answer: async () => {
        await new Promise((r) => setTimeout(r, 300));
        return { response: 'ok', suggestedActions: [], toolsUsed: [] };
      },
      enhanceContent: () => Promise.reject(new Error('unused')),
      enhanceField: () => Promise.reject(new Error('unused')),
      previewKb: () => Promise.reject(new Error('unused')),
    };
    const body = askStream(
      ctx.db,
      slow,
      { userId: user.id, role: 'editor', timeZone: 'UTC' },
      { query: 'hi', conversationHistory: [] },
      ctx.deps.logger,
      { heartbeatMs: 50 },
    );
    const text = await new Response(body).text();
    expect(text.match(/^: keep-alive\n\n/gm)?.length).toBeGreaterThanOrEqual(3);
    expect(text).toMatch(/: keep-alive\n\ndata: \{"done":true/);
  });
});

describe('items 11 and 12: abandoned questions and tool calls (real HTTP server)', () => {
  let app: RunningApp;
  let member: TestUser;

  beforeAll(async () => {
    // Long deadlines here: only the client going away may end the model call.
    app = await startApp({ ...MODEL_ENV, OPENAI_BASE_URL: fake.url }, (c) =>
      Object.assign(c.config.openai!, { limits: { idleMs: 10_000, deadlineMs: 20_000 } }),
    );
    member = await createSignedInUser(app.db);
    await seedInventory(app.db, member.id);
  });
  afterAll(() => app?.stop());
  const asMember = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: app.url, Cookie: member.cookie },
    body: JSON.stringify(body),
  });

  it.each(['/api/ai/ask', '/api/ai/ask-stream'])(
    '%s: the model call is aborted when the client disconnects',
    async (path) => {
      fake.mode = 'keep-alive-after-chunk';
      const client = new AbortController();
      const pending = fetch(`${app.url}${path}`, { ...asMember(question), signal: client.signal }).then((res) =>
        res.text(),
      ); // the stream's body is read until the abort
      expect(await eventually(() => fake.requests.length === 1)).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      expect(fake.requests[0].closed).toBe(false);
      client.abort();
      await expect(pending).rejects.toThrow();
      expect(await eventually(() => fake.requests[0].closed)).toBe(true);
    },
    8000,
  );

  it(`a model asking for 100 tool calls a round: ${MAX_TOOL_CALLS_PER_ROUND} run per round, none in the last round (tool_choice none)`, async () => {
    fake.mode = 'many-tools';
    const res = await app.app.request('/api/ai/ask', asMember(question));
    expect(res.status).toBe(200);
    const { interactionId } = await res.json();
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests.at(-1)!.body.tool_choice).toBe('none');
    for (const { body } of fake.requests) {
      for (const m of body.messages.filter((m) => m.tool_calls))
        expect(m.tool_calls!.length).toBe(MAX_TOOL_CALLS_PER_ROUND);
    }
    expect(fake.requests.at(-1)!.body.messages.filter((m) => m.role === 'tool')).toHaveLength(
      3 * MAX_TOOL_CALLS_PER_ROUND,
    );
    const [row] = await app.db.select().from(aiInteractions).where(eq(aiInteractions.id, interactionId));
    expect((row.context as { tools: unknown[] }).tools).toHaveLength(3 * MAX_TOOL_CALLS_PER_ROUND);
  });
});

describe('item 12: tool results sent back to the model are bounded per question', () => {
  it('results beyond the budget are replaced by a short note asking for a narrower question', async () => {
    fake.mode = 'many-tools';
    expect((await post('/api/ai/ask', question)).status).toBe(200);
    const toolMessages = fake.requests
      .at(-1)!
      .body.messages.filter((m) => m.role === 'tool')
      .map((m) => m.content!);
    const data = toolMessages.filter((c) => c.includes('untrusted_data'));
    expect(data.length).toBeGreaterThan(0);
    expect(data.join('').length).toBeLessThanOrEqual(LIMITS.toolResultChars);
    expect(toolMessages.length - data.length).toBeGreaterThan(0);
    for (const refused of toolMessages.filter((c) => !c.includes('untrusted_data')))
      expect(JSON.parse(refused).error).toMatch(/narrower/);
  });
});

describe('item 13: model errors, answer size, writing-tool input', () => {
  it('a 429 from the model becomes 503 with its Retry-After and a clear message', async () => {
    fake.mode = 'rate-limited';
    const res = await post('/api/ai/ask', question);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toMatchObject({ message: 'The AI model is busy. Please try again later.' });
  });

  it('a 500 from the model becomes 502 with a clear message', async () => {
    fake.mode = 'server-error';
    const res = await post('/api/ai/ask', question);
    expect(res.status).toBe(502);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(await res.json()).toMatchObject({ message: 'The AI model returned an error. Please try again.' });
  });

  it(`a huge answer is cut at ${MAX_ANSWER_CHARS} characters (stored and returned), so it can be sent back as history`, async () => {
    fake.mode = 'huge-answer';
    const res = await post('/api/ai/ask', question);
    const { response, interactionId } = await res.json();
    expect(response.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    expect(response.length).toBeGreaterThan(MAX_ANSWER_CHARS - 100);
    expect(response).toMatch(/^000x+/);
    expect(response).toMatch(/cut at 20,000 characters/);
    const [row] = await ctx.db.select().from(aiInteractions).where(eq(aiInteractions.id, interactionId));
    expect(row.response).toBe(response);

    const events = await sseEvents(await post('/api/ai/ask-stream', question));
    const done = events.at(-1)!;
    expect(done.done).toBe(true);
    expect(
      events
        .filter((e) => e.chunk)
        .map((e) => e.chunk)
        .join(''),
    ).toBe(done.fullResponse);
    expect(done.fullResponse).toBe(response);

    fake.mode = 'normal';
    const followUp = await post('/api/ai/ask', {
      query: 'and?',
      conversationHistory: [
        { type: 'user', content: question.query },
        { type: 'assistant', content: response },
      ],
    });
    expect(followUp.status).toBe(200);
  });

  it(`writing tools send the model at most ${AUTO_CREATE_COUNTER} characters (longer text gets the built-in processing)`, async () => {
    const atLimit = await post('/api/ai/auto-create-kb-preview', {
      content: `restart dns\n${'a'.repeat(AUTO_CREATE_COUNTER - 12)}`,
    });
    expect((await atLimit.json()).title).toBe('Restart the DNS Service'); // the model's answer
    expect(fake.requests).toHaveLength(1);

    fake.requests.length = 0;
    const long = `restart dns\n${'a'.repeat(AUTO_CREATE_COUNTER)}`;
    for (const [path, body] of [
      ['/api/ai/auto-create-kb-preview', { content: long }],
      ['/api/ai/enhance-content', { title: 't', content: long }],
      ['/api/ai/enhance-field', { fieldType: 'excerpt', content: long }],
    ] as const) {
      const res = await post(path, body);
      expect(res.status).toBe(200);
    }
    expect(fake.requests).toHaveLength(0);
  });
});
