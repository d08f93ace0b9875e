import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_TITLE_CHARS, RECENT_CONVERSATIONS } from '../../src/ai/shared';
import { aiConversations, aiInteractions } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { seedInventory } from './seed';

/** Issue 26: every question belongs to one of its asker's conversations, saved on the server (JSON API). */

let ctx: TestContext;
let user: TestUser;
let other: TestUser;

beforeAll(async () => {
  ctx = await createTestApp();
  user = await createSignedInUser(ctx.db);
  other = await createSignedInUser(ctx.db, { role: 'viewer' });
  await seedInventory(ctx.db, user.id);
});
afterAll(() => ctx?.close());

interface Answer {
  response: string;
  suggestedActions: string[];
  interactionId: string;
  conversationId: string;
}

const call = (method: string, path: string, body?: unknown, who: TestUser = user) =>
  ctx.app.request(path, jsonRequest(method, body, who.cookie));

async function ask(query: string, conversationId?: string, who: TestUser = user): Promise<Answer> {
  const res = await call('POST', '/api/ai/ask', { query, conversationHistory: [], conversationId }, who);
  expect(res.status).toBe(200);
  return res.json();
}

/** The data events of a server-sent event stream. */
async function streamed(res: Response) {
  return (await res.text())
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

const NOT_FOUND = { message: 'Conversation not found.', code: 'not_found' };

describe('asking creates and continues conversations', () => {
  it('a question without conversationId starts a new conversation, titled with it, and returns its id', async () => {
    const answer = await ask('Show me all servers in Auburn location');
    expect(answer.response).toContain('AUB-POS-01'); // every spec field is still there
    expect(answer.suggestedActions.length).toBeGreaterThan(0);
    expect(answer.interactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.conversationId).toMatch(/^[0-9a-f-]{36}$/);

    const list = await (await call('GET', '/api/ai/conversations')).json();
    expect(list[0]).toMatchObject({
      id: answer.conversationId,
      title: 'Show me all servers in Auburn location',
      shared: false,
      link: `/ai/c/${answer.conversationId}`,
    });
    const [row] = await ctx.db.select().from(aiInteractions).where(eq(aiInteractions.id, answer.interactionId));
    expect(row.conversationId).toBe(answer.conversationId);
  });

  it('a follow-up with the id stays in the same conversation (plain and streamed), in order', async () => {
    const first = await ask('List all servers with their IP addresses');
    const second = await ask('Who are the support team contacts?', first.conversationId);
    expect(second.conversationId).toBe(first.conversationId);

    const stream = await call('POST', '/api/ai/ask-stream', {
      query: 'Show me recent server issues and problems',
      conversationId: first.conversationId,
    });
    expect(stream.status).toBe(200);
    const done = (await streamed(stream)).at(-1)!;
    expect(done).toMatchObject({ done: true, conversationId: first.conversationId });
    expect(typeof done.fullResponse).toBe('string');
    expect(done.interactionId).toMatch(/^[0-9a-f-]{36}$/);

    const view = await (await call('GET', `/api/ai/conversations/${first.conversationId}`)).json();
    expect(view.title).toBe('List all servers with their IP addresses');
    expect(view.mine).toBe(true);
    expect(view.messages.map((m: { query: string }) => m.query)).toEqual([
      'List all servers with their IP addresses',
      'Who are the support team contacts?',
      'Show me recent server issues and problems',
    ]);
    expect(view.messages[0].response).toContain('127.30.0.31');
    expect(view.messages[2].interactionId).toBe(done.interactionId);
    // Continuing moves it to the top of the list.
    await ask('Show me servers grouped by location', (await ask('Check server status')).conversationId);
    await ask('Show me the network configuration and topology', first.conversationId);
    const list = await (await call('GET', '/api/ai/conversations')).json();
    expect(list[0].id).toBe(first.conversationId);
  });

  it('a streamed question without an id starts a conversation too', async () => {
    const stream = await call('POST', '/api/ai/ask-stream', { query: 'Who are the support team contacts?' });
    const done = (await streamed(stream)).at(-1)!;
    expect(done.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call('GET', `/api/ai/conversations/${done.conversationId}`)).status).toBe(200);
  });

  it("someone else's conversation id, or an unknown one, is 404 on every route, before anything is answered", async () => {
    const mine = await ask('Show me servers grouped by location');
    const before = (await ctx.db.select().from(aiInteractions)).length;
    for (const id of [mine.conversationId, randomUUID()]) {
      const asked = await call('POST', '/api/ai/ask', { query: 'Check server status', conversationId: id }, other);
      expect(asked.status).toBe(404);
      expect(await asked.json()).toEqual(NOT_FOUND);
      const stream = await call(
        'POST',
        '/api/ai/ask-stream',
        { query: 'Check server status', conversationId: id },
        other,
      );
      expect(stream.status).toBe(404);
      expect(stream.headers.get('content-type')).toContain('application/json');
      for (const [method, path, body] of [
        ['GET', `/api/ai/conversations/${id}`, undefined],
        ['DELETE', `/api/ai/conversations/${id}`, undefined],
        ['POST', `/api/ai/conversations/${id}/share`, { shared: true }],
      ] as const) {
        const res = await call(method, path, body, other);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(await res.json()).toEqual(NOT_FOUND);
      }
    }
    expect((await ctx.db.select().from(aiInteractions)).length).toBe(before);
    expect((await call('GET', `/api/ai/conversations/${mine.conversationId}`)).status).toBe(200);
    expect(await (await call('GET', '/api/ai/conversations', undefined, other)).json()).toEqual([]);
  });

  it('checks its input: a conversationId that is not an id is 400, a path id that is not one 404', async () => {
    const bad = await call('POST', '/api/ai/ask', { query: 'hi', conversationId: 'nope' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('conversationId must be a conversation id.');
    expect((await call('POST', '/api/ai/ask', { query: 'Check server status', conversationId: null })).status).toBe(
      200,
    );
    expect((await call('GET', '/api/ai/conversations/nope')).status).toBe(404);
    const mine = await ask('Check server status');
    const share = await call('POST', `/api/ai/conversations/${mine.conversationId}/share`, { shared: 'yes' });
    expect(share.status).toBe(400);
    expect((await share.json()).message).toBe('shared must be true or false.');
    expect((await ctx.app.request('/api/ai/conversations', jsonRequest('GET'))).status).toBe(401);
  });

  it('a long first question is cut to the title length on a word, with an ellipsis', async () => {
    const query = `Find documentation about ${'rotating the storefront certificates '.repeat(6)}`.trim();
    const { conversationId } = await ask(query);
    const [row] = await ctx.db.select().from(aiConversations).where(eq(aiConversations.id, conversationId));
    expect(row.title.length).toBeLessThanOrEqual(CONVERSATION_TITLE_CHARS);
    expect(row.title.endsWith('…')).toBe(true);
    expect(query.startsWith(row.title.slice(0, -1))).toBe(true);
  });
});

describe('listing, deleting and sharing', () => {
  it(`lists only the user's own, newest first, at most ${RECENT_CONVERSATIONS}`, async () => {
    const lister = await createSignedInUser(ctx.db);
    const base = Date.UTC(2026, 10, 1);
    await ctx.db.insert(aiConversations).values(
      Array.from({ length: RECENT_CONVERSATIONS + 2 }, (_, i) => ({
        userId: lister.id,
        title: `Question ${i}`,
        updatedAt: new Date(base + i * 60_000),
      })),
    );
    const list = await (await call('GET', '/api/ai/conversations', undefined, lister)).json();
    expect(list.map((c: { title: string }) => c.title)).toEqual(
      Array.from({ length: RECENT_CONVERSATIONS }, (_, i) => `Question ${RECENT_CONVERSATIONS + 1 - i}`),
    );
  });

  it('deletes a conversation with its exchanges; then it is gone everywhere', async () => {
    const first = await ask('Show me all servers in Auburn location');
    const second = await ask('Check server status', first.conversationId);
    const res = await call('DELETE', `/api/ai/conversations/${first.conversationId}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Conversation deleted.' });
    expect((await call('GET', `/api/ai/conversations/${first.conversationId}`)).status).toBe(404);
    const list = await (await call('GET', '/api/ai/conversations')).json();
    expect(list.some((c: { id: string }) => c.id === first.conversationId)).toBe(false);
    const left = await ctx.db.select().from(aiInteractions).where(eq(aiInteractions.id, second.interactionId));
    expect(left).toEqual([]);
    // A follow-up to the deleted conversation is refused (the chat then starts a new one).
    expect((await call('POST', '/api/ai/ask', { query: 'hi', conversationId: first.conversationId })).status).toBe(404);
    expect((await call('DELETE', `/api/ai/conversations/${first.conversationId}`)).status).toBe(404);
  });

  it('shares by link and stops sharing: another user sees it only while it is shared', async () => {
    const { conversationId } = await ask('List all servers with their IP addresses');
    const path = `/api/ai/conversations/${conversationId}`;
    expect((await call('GET', path, undefined, other)).status).toBe(404);

    const shared = await call('POST', `${path}/share`, { shared: true });
    expect(shared.status).toBe(200);
    expect(await shared.json()).toMatchObject({ id: conversationId, shared: true, link: `/ai/c/${conversationId}` });
    const seen = await call('GET', path, undefined, other);
    expect(seen.status).toBe(200);
    const view = await seen.json();
    expect(view).toMatchObject({ id: conversationId, mine: false, ownerName: 'Test User', shared: true });
    expect(view.messages[0].response).toContain('127.30.0.31');
    // Not theirs to continue, share or delete.
    expect((await call('POST', '/api/ai/ask', { query: 'hi', conversationId }, other)).status).toBe(404);
    expect((await call('DELETE', path, undefined, other)).status).toBe(404);
    expect((await call('POST', `${path}/share`, { shared: false }, other)).status).toBe(404);

    expect((await (await call('POST', `${path}/share`, { shared: false })).json()).shared).toBe(false);
    expect((await call('GET', path, undefined, other)).status).toBe(404);
    expect((await call('GET', path)).status).toBe(200);
  });
});
