import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, appSettings, auditLog } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { call, connect, MCP_URL, newToken } from './client';

/**
 * Issue 26, the MCP server's door: a personal API token or nothing (401), revoked and expired tokens refused, and
 * at most MCP_RATE_LIMIT requests a minute per token (429 with an MCP error past it).
 */

const LIMIT = 4;
let t: TestContext;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ MCP_RATE_LIMIT: String(LIMIT) });
  user = await createSignedInUser(t.db, { role: 'editor' });
});
afterAll(() => t?.close());

/** A raw MCP request (tools/list), as a client sends it after initialising. */
const listRequest = (headers: Record<string, string>) =>
  t.app.request(MCP_URL, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Protocol-Version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
  });

/** The HTTP status and message of the refusal a client hit. */
async function refusalOf(attempt: Promise<unknown>): Promise<{ status: number; message: string }> {
  const err = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StreamableHTTPError);
  return { status: (err as StreamableHTTPError).code!, message: (err as Error).message };
}

const auditCount = async () =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(eq(auditLog.action, 'mcp.call')))[0].n;

describe('authentication', () => {
  it('refuses a client without a token: 401 with a Bearer challenge and a JSON-RPC error', async () => {
    expect(await refusalOf(connect(t))).toEqual({
      status: 401,
      message: expect.stringContaining('A personal API token is required'),
    });
    const res = await listRequest({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="Ops Hub"');
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('Authorization: Bearer') },
      id: null,
    });
  });

  it('does not take a session cookie instead of a token', async () => {
    const res = await listRequest({ Cookie: user.cookie, Origin: 'http://localhost:3000' });
    expect(res.status).toBe(401);
  });

  it('refuses a token once it is revoked, mid-conversation too, and an expired one', async () => {
    const before = await auditCount();
    const { id, token } = await newToken(t, user);
    const client = await connect(t, token);
    expect((await call(client, 'recent_documents')).isError).toBe(false);
    const revoked = await t.app.request(`/api/me/tokens/${id}`, jsonRequest('DELETE', undefined, user.cookie));
    expect(revoked.status).toBe(200);
    const invalid = { status: 401, message: expect.stringContaining('Invalid, expired or revoked API token.') };
    expect(await refusalOf(call(client, 'recent_documents'))).toEqual(invalid);
    expect(await refusalOf(connect(t, token))).toEqual(invalid);
    await client.close();

    const expiring = await newToken(t, user);
    await t.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expiring.id));
    expect(await refusalOf(connect(t, expiring.token))).toEqual(invalid);
    // Only the call made with a live token was recorded.
    expect(await auditCount()).toBe(before + 1);
  });

  it('holds back an owner who owes the two-factor set-up the workspace requires (403)', async () => {
    const { token } = await newToken(t, user);
    await t.db
      .insert(appSettings)
      .values({ id: 1, requireTwoFactor: true })
      .onConflictDoUpdate({ target: appSettings.id, set: { requireTwoFactor: true } });
    try {
      expect(await refusalOf(connect(t, token))).toEqual({
        status: 403,
        message: expect.stringContaining('Two-factor sign-in is required'),
      });
    } finally {
      await t.db.update(appSettings).set({ requireTwoFactor: false }).where(eq(appSettings.id, 1));
    }
  });

  it('answers a body that is not JSON with a JSON-RPC parse error (400)', async () => {
    const { token } = await newToken(t, user);
    const res = await t.app.request(MCP_URL, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc": "2.0", "method": ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32700 }, id: null });
  });

  it('refuses a JSON-RPC batch (400): many calls would pass on one count of the rate limit', async () => {
    const { token } = await newToken(t, user);
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'recent_documents' } });
    const res = await t.app.request(MCP_URL, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify([call(1), call(2), call(3)]),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining('Batches') } });
  });

  it('answers GET and DELETE with 405: the server is stateless and offers no event stream', async () => {
    const res = await t.app.request(MCP_URL, { headers: { Accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await t.app.request(MCP_URL, { method: 'DELETE' })).status).toBe(405);
  });
});

describe('rate limit (MCP_RATE_LIMIT a minute per token)', () => {
  it('answers 429 with an MCP error past the limit; another token goes on', async () => {
    const { token } = await newToken(t, user);
    // initialize and the initialized notification are two requests; then a list and a call.
    const client = await connect(t, token);
    await client.listTools();
    expect((await call(client, 'team_contacts')).isError).toBe(false);
    const over = await refusalOf(call(client, 'team_contacts'));
    expect(over).toEqual({
      status: 429,
      message: expect.stringContaining(`Rate limit exceeded: ${LIMIT} requests a minute per token.`),
    });
    await client.close();

    const res = await listRequest({ Authorization: `Bearer ${token}` });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/^Rate limit exceeded: .* Try again in \d+ s\.$/) },
      id: null,
    });

    const other = await connect(t, (await newToken(t, user)).token);
    expect((await other.listTools()).tools.length).toBeGreaterThan(0);
    await other.close();
  });
});
