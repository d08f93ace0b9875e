import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENIED_MESSAGE } from '../../src/auth/policy';
import { apiTokens, documents, servers, users } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Personal API tokens as `Authorization: Bearer` on the JSON API (issue 21 › Personal API tokens). */
let t: TestContext;
let editor: TestUser;

const FOREIGN = 'https://evil.example';
const note = { title: 'Rotate the backup keys', content: 'Steps: rotate, test, record.' };

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
});
afterAll(() => t.close());

/** A request with only the bearer token (no cookie); extra headers such as Origin when given. */
function bearer(token: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}): RequestInit {
  const all: Record<string, string> = { Authorization: `Bearer ${token}`, ...headers };
  if (body !== undefined) all['Content-Type'] = 'application/json';
  return { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) };
}

async function newToken(
  user: TestUser,
  scope: 'read' | 'read-write' = 'read-write',
  expiresInDays?: number,
): Promise<{ id: string; token: string }> {
  const res = await t.app.request(
    '/api/me/tokens',
    jsonRequest('POST', { name: 'cli', scope, expiresInDays }, user.cookie),
  );
  expect(res.status).toBe(201);
  return res.json();
}

const whoAmI = (token: string) => t.app.request('/api/auth/user', bearer(token));

async function refusal(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(typeof body.message).toBe('string');
  return body.message;
}

describe('a personal API token', () => {
  it('acts as its owner on the JSON API, with the owner’s role', async () => {
    const { token } = await newToken(editor);
    const res = await whoAmI(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: editor.id, email: editor.email, role: 'editor' });
    const created = await t.app.request('/api/knowledge-base', bearer(token, 'POST', note));
    expect(created.status).toBe(201);
    const [row] = await t.db
      .select()
      .from(documents)
      .where(eq(documents.id, (await created.json()).id));
    expect(row.authorId).toBe(editor.id);
  });

  it('with read scope reads (GET) but gets 403 on any write', async () => {
    const { id, token } = await newToken(editor, 'read');
    expect((await t.app.request('/api/knowledge-base', bearer(token))).status).toBe(200);
    expect((await whoAmI(token)).status).toBe(200);
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(documents);
    const post = await t.app.request('/api/knowledge-base', bearer(token, 'POST', note));
    expect(await refusal(post, 403)).toBe('This API token is read-only.');
    expect(await t.db.select({ n: sql<number>`count(*)::int` }).from(documents)).toEqual(before);
    // Not even its own revocation: only the owner's session (or a read-write token) does that.
    expect(await refusal(await t.app.request(`/api/me/tokens/${id}`, bearer(token, 'DELETE')), 403)).toBe(
      'This API token is read-only.',
    );
  });

  it('never has more than its owner: a viewer’s or an editor’s read-write token is refused what their role may not do', async () => {
    const viewer = await createSignedInUser(t.db, { role: 'viewer' });
    const viewerToken = (await newToken(viewer)).token;
    expect((await t.app.request('/api/knowledge-base', bearer(viewerToken))).status).toBe(200);
    const post = await t.app.request('/api/knowledge-base', bearer(viewerToken, 'POST', note));
    expect(await refusal(post, 403)).toBe(DENIED_MESSAGE);

    const editorToken = (await newToken(editor)).token;
    expect(await refusal(await t.app.request('/api/admin/pending-users', bearer(editorToken)), 403)).toBe(
      DENIED_MESSAGE,
    );
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    expect((await t.app.request('/api/admin/pending-users', bearer((await newToken(admin)).token))).status).toBe(200);
  });

  it('is refused (401) once expired', async () => {
    const { id, token } = await newToken(editor, 'read', 30);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    const days = (row.expiresAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect((await whoAmI(token)).status).toBe(200);
    await t.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, id));
    expect(await refusal(await whoAmI(token), 401)).toBe('Invalid, expired or revoked API token.');
  });

  it('is refused (401) once revoked with DELETE /api/me/tokens/{id}', async () => {
    const { id, token } = await newToken(editor);
    expect((await whoAmI(token)).status).toBe(200);
    const revoked = await t.app.request(`/api/me/tokens/${id}`, jsonRequest('DELETE', undefined, editor.cookie));
    expect(revoked.status).toBe(200);
    expect(await refusal(await whoAmI(token), 401)).toBe('Invalid, expired or revoked API token.');
  });

  it('cannot list, create or revoke tokens: a leaked token mints no successors', async () => {
    const { id, token } = await newToken(editor);
    const message = 'API tokens are managed from a signed-in session, not with a token.';
    expect(await refusal(await t.app.request('/api/me/tokens', bearer(token)), 403)).toBe(message);
    const minted = await t.app.request('/api/me/tokens', bearer(token, 'POST', { name: 'more', scope: 'read-write' }));
    expect(await refusal(minted, 403)).toBe(message);
    expect(await refusal(await t.app.request(`/api/me/tokens/${id}`, bearer(token, 'DELETE')), 403)).toBe(message);
    expect((await whoAmI(token)).status).toBe(200);
  });

  it('stops working while its owner is deactivated', async () => {
    const owner = await createSignedInUser(t.db, { role: 'editor' });
    const { token } = await newToken(owner);
    expect((await whoAmI(token)).status).toBe(200);
    await t.db.update(users).set({ accountStatus: 'deactivated' }).where(eq(users.id, owner.id));
    await refusal(await whoAmI(token), 401);
    await refusal(await t.app.request('/api/knowledge-base', bearer(token, 'POST', note)), 401);
    await t.db.update(users).set({ accountStatus: 'active' }).where(eq(users.id, owner.id));
    expect((await whoAmI(token)).status).toBe(200);
  });

  it('unknown tokens are 401 on the API, and pages never accept a bearer token', async () => {
    expect(await refusal(await whoAmI('ohp_not-a-real-token'), 401)).toBe('Invalid, expired or revoked API token.');
    const { token } = await newToken(editor);
    const page = await t.app.request('/settings', bearer(token));
    expect([302, 303]).toContain(page.status);
    expect(page.headers.get('location')).toMatch(/^\/login\?next=/);
  });

  it('needs no CSRF check: a Bearer request passes from any origin, a session cookie is still checked', async () => {
    const { token } = await newToken(editor);
    const fromAfar = await t.app.request('/api/knowledge-base', bearer(token, 'POST', note, { Origin: FOREIGN }));
    expect(fromAfar.status).toBe(201);
    const cookie = await t.app.request('/api/knowledge-base', {
      method: 'POST',
      headers: { Origin: FOREIGN, Cookie: editor.cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify(note),
    });
    expect(await refusal(cookie, 403)).toBe('Cross-site request refused.');
    // A bearer header does not excuse a request that also carries a session cookie.
    const both = await t.app.request(
      '/api/knowledge-base',
      bearer(token, 'POST', note, { Origin: FOREIGN, Cookie: editor.cookie }),
    );
    expect(await refusal(both, 403)).toBe('Cross-site request refused.');
  });

  it('stamps its last use at most once a minute', async () => {
    const { id, token } = await newToken(editor, 'read');
    const lastUsed = async () =>
      (await t.db.select({ at: apiTokens.lastUsedAt }).from(apiTokens).where(eq(apiTokens.id, id)))[0].at;
    expect(await lastUsed()).toBeNull();
    await whoAmI(token);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await whoAmI(token);
    expect((await lastUsed())?.getTime()).toBe(first!.getTime());
    const earlier = new Date(Date.now() - 2 * 60_000);
    await t.db.update(apiTokens).set({ lastUsedAt: earlier }).where(eq(apiTokens.id, id));
    await whoAmI(token);
    expect((await lastUsed())!.getTime()).toBeGreaterThan(earlier.getTime() + 60_000);
  });

  it('is not a metrics token, and a metrics token is not a user', async () => {
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    const [server] = await t.db.insert(servers).values({ name: 'web-01', ipAddress: '127.0.0.1' }).returning();
    const metrics = { cpuUsage: 1, memoryUsage: 2, diskUsage: 3, uptime: 60 };
    const personal = (await newToken(admin)).token;
    const push = await t.app.request(`/api/servers/${server.id}/metrics`, bearer(personal, 'PUT', metrics));
    expect(await refusal(push, 401)).toBe('Invalid or revoked API token.');
    const created = await t.app.request(
      '/api/tokens',
      jsonRequest('POST', { name: 'agent', serverIds: [server.id] }, admin.cookie),
    );
    const agent = (await created.json()).token as string;
    expect((await t.app.request(`/api/servers/${server.id}/metrics`, bearer(agent, 'PUT', metrics))).status).toBe(200);
    await refusal(await whoAmI(agent), 401);
    await refusal(await t.app.request('/api/knowledge-base', bearer(agent)), 401);
  });
});
