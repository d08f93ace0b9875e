import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiInteractions, userPreferences } from '../../src/db/schema';
import { formatDateTime } from '../../src/ui/shared';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { seedInventory } from './seed';

/** Issue 26: "Recent conversations" on /ai and a conversation's page /ai/c/{id}, server-rendered (no JavaScript). */

let ctx: TestContext;
let user: TestUser;
let other: TestUser;
let seed: Awaited<ReturnType<typeof seedInventory>>;

beforeAll(async () => {
  ctx = await createTestApp();
  user = await createSignedInUser(ctx.db, { firstName: 'Petra', lastName: 'Perth' });
  other = await createSignedInUser(ctx.db, { role: 'viewer' });
  await ctx.db.insert(userPreferences).values({ userId: user.id, timezone: 'Australia/Perth' });
  seed = await seedInventory(ctx.db, user.id);
});
afterAll(() => ctx?.close());

const get = (path: string, who: TestUser = user) => ctx.app.request(path, { headers: { Cookie: who.cookie } });

/** A plain form post, as a browser without JavaScript sends it. */
const form = (
  path: string,
  fields: Record<string, string>,
  who: TestUser = user,
  origin: string | null = TEST_ORIGIN,
) =>
  ctx.app.request(path, {
    method: 'POST',
    headers: {
      Cookie: who.cookie,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(origin ? { Origin: origin } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });

async function ask(query: string, who: TestUser = user) {
  const res = await ctx.app.request('/api/ai/ask', jsonRequest('POST', { query }, who.cookie));
  expect(res.status).toBe(200);
  return (await res.json()) as { conversationId: string; interactionId: string };
}

/** HTML escapes the island's JSON props. */
const inProps = (html: string, text: string) => html.includes(text.replaceAll('"', '&quot;'));

describe('/ai: Recent conversations', () => {
  it('shows the empty state to someone who has asked nothing yet', async () => {
    const html = await (await get('/ai', other)).text();
    expect(html).toContain('Recent conversations');
    expect(html).toContain('No conversations yet');
    expect(html).toContain('Ask Ops AI a question: each conversation is saved here.');
  });

  it('lists the conversations newest first, each with its time in the user’s time zone and its page', async () => {
    const older = await ask('Show me all servers in Auburn location');
    const newer = await ask('List all servers with their IP addresses');
    const html = await (await get('/ai')).text();
    const list = html.slice(html.indexOf('aria-label="Recent conversations"'));
    expect(list.indexOf('List all servers with their IP addresses')).toBeLessThan(
      list.indexOf('Show me all servers in Auburn location'),
    );
    expect(list).toContain(`href="/ai/c/${newer.conversationId}"`);
    expect(list).toContain(`href="/ai/c/${older.conversationId}"`);
    const listed = (await (await get('/api/ai/conversations')).json()) as { id: string; updatedAt: string }[];
    const at = listed.find((c) => c.id === newer.conversationId)!.updatedAt;
    expect(formatDateTime(at, 'Australia/Perth')).not.toBe(formatDateTime(at, 'UTC'));
    expect(list).toContain(formatDateTime(at, 'Australia/Perth'));
    expect(list).toContain(`action="/ai/c/${newer.conversationId}/delete"`);
    expect(list).toContain('Are you sure you want to delete &quot;List all servers with their IP addresses&quot;?');
  });
});

describe('/ai/c/{id}', () => {
  it('shows the conversation read-only, its answers rendered on the server, with its owner’s actions', async () => {
    const { conversationId } = await ask('List all servers with their IP addresses');
    const res = await get(`/ai/c/${conversationId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>List all servers with their IP addresses');
    expect(html).toContain('<table>');
    expect(html).toContain(`href="/infrastructure?server=${seed.servers['MEL-DB-01']}"`);
    expect(html).toContain('127.30.0.31');
    expect(html).toContain(`href="/ai?continue=${conversationId}"`);
    expect(html).toMatch(/<button type="submit"[^>]*>Share link<\/button>/);
    expect(html).not.toContain('&quot;mode&quot;:&quot;page&quot;'); // no chat island: nothing to run to read it
  });

  it('shares by a plain form, shows the link to share, and stops sharing', async () => {
    const { conversationId } = await ask('Who are the support team contacts?');
    const page = `/ai/c/${conversationId}`;
    const shared = await form(`${page}/share`, { shared: 'true' });
    expect(shared.status).toBe(303);
    expect(shared.headers.get('location')).toBe(`${page}?done=shared`);
    const html = await (await get(`${page}?done=shared`)).text();
    expect(html).toContain('Share link created');
    expect(html).toContain(`value="${TEST_ORIGIN}${page}"`);
    expect(html).toContain('Stop sharing');

    const seen = await (await get(page, other)).text();
    expect(seen).toContain('Shared by Petra Perth');
    expect(seen).toContain('Alice Nguyen');
    expect(seen).not.toContain(`/ai?continue=${conversationId}`);
    expect(seen).not.toContain('Stop sharing');
    expect((await form(`${page}/delete`, {}, other)).status).toBe(404);
    expect((await form(`${page}/share`, { shared: 'false' }, other)).status).toBe(404);
    expect((await get(`/ai?continue=${conversationId}`, other)).status).toBe(404);

    const stopped = await form(`${page}/share`, { shared: 'false' });
    expect(stopped.headers.get('location')).toBe(`${page}?done=unshared`);
    expect((await get(page, other)).status).toBe(404);
    expect((await form(`${page}/share`, { shared: 'maybe' })).status).toBe(400);
  });

  it('Continue loads the conversation into the chat, which follow-ups then continue', async () => {
    const { conversationId } = await ask('Show me all servers in Auburn location');
    const res = await get(`/ai?continue=${conversationId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(inProps(html, `"conversationId":"${conversationId}"`)).toBe(true);
    expect(inProps(html, '"query":"Show me all servers in Auburn location"')).toBe(true);
    expect(html).toContain('data-replace-url="/ai"');
    expect((await get('/ai?continue=not-an-id')).status).toBe(404);
  });

  it('without JavaScript, the chat form continues the conversation it answered in', async () => {
    const first = await form('/ai', { query: 'Check server status' });
    const html = await first.text();
    const id = /name="conversationId" value="([0-9a-f-]{36})"/.exec(html)?.[1];
    expect(id).toBeDefined();
    await form('/ai', { query: 'Who are the support team contacts?', conversationId: id! });
    const rows = await ctx.db.select().from(aiInteractions).where(eq(aiInteractions.conversationId, id!));
    expect(rows.map((r) => r.query).sort()).toEqual(['Check server status', 'Who are the support team contacts?']);
  });

  it('deletes by a form POST (same-origin only), back to /ai with a toast; then it is gone', async () => {
    const { conversationId } = await ask('Show me servers grouped by location');
    const page = `/ai/c/${conversationId}`;
    expect((await form(`${page}/delete`, {}, user, 'https://evil.example')).status).toBe(403);
    const res = await form(`${page}/delete`, {});
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/ai?done=deleted');
    const html = await (await get('/ai?done=deleted')).text();
    expect(html).toContain('Conversation deleted');
    expect(html).not.toContain(page);
    expect((await get(page)).status).toBe(404);
    expect((await get('/ai/c/not-an-id')).status).toBe(404);
  });
});
