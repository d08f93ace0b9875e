import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, servers } from '../../src/db/schema';
import { hashToken } from '../../src/auth/tokens';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

const run = promisify(execFile);
let app: RunningApp;
let admin: TestUser;
let member: TestUser;
let serverId: string;
let otherServerId: string;

const metrics = { cpuUsage: 5, memoryUsage: 6, diskUsage: 7, uptime: 3600 };
const bearer = (token: string, body: unknown = metrics): RequestInit => ({
  method: 'PUT',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** A same-origin request to the listening app (its APP_URL is its own loopback address). */
function jsonRequest(method: string, body?: unknown, cookie?: string): RequestInit {
  const headers: Record<string, string> = { Origin: app.url };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (cookie) headers.Cookie = cookie;
  return { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}

async function newToken(name: string, serverIds = [serverId]): Promise<{ id: string; token: string }> {
  const res = await app.app.request('/api/tokens', jsonRequest('POST', { name, serverIds }, admin.cookie));
  expect(res.status).toBe(201);
  return res.json();
}

beforeAll(async () => {
  app = await startApp();
  admin = await createSignedInUser(app.db, { role: 'admin' });
  member = await createSignedInUser(app.db);
  const [row] = await app.db.insert(servers).values({ name: 'agent-host', ipAddress: '127.0.0.1' }).returning();
  serverId = row.id;
  const [other] = await app.db.insert(servers).values({ name: 'db-01', ipAddress: '127.0.0.1' }).returning();
  otherServerId = other.id;
});
afterAll(() => app.stop());

describe('API tokens', () => {
  it('are admin only', async () => {
    expect(
      (await app.app.request('/api/tokens', jsonRequest('POST', { name: 'x', serverIds: [serverId] }, member.cookie)))
        .status,
    ).toBe(403);
    expect((await app.app.request('/api/tokens', jsonRequest('GET', undefined, member.cookie))).status).toBe(403);
    expect((await app.app.request('/api/tokens')).status).toBe(401);
    expect(
      (await app.app.request('/api/tokens', jsonRequest('POST', { name: '', serverIds: [serverId] }, admin.cookie)))
        .status,
    ).toBe(400);
  });

  it('name the servers they report for: at least one, each a real server', async () => {
    const refused = async (body: unknown) => {
      const res = await app.app.request('/api/tokens', jsonRequest('POST', body, admin.cookie));
      expect(res.status).toBe(400);
      return (await res.json()).message as string;
    };
    expect(await refused({ name: 'none' })).toBe('serverIds must list the servers.');
    expect(await refused({ name: 'empty', serverIds: [] })).toBe('serverIds must name at least one server.');
    expect(await refused({ name: 'bad', serverIds: ['web-01'] })).toBe('serverIds must be server ids.');
    const ghost = '00000000-0000-4000-8000-000000000000';
    expect(await refused({ name: 'ghost', serverIds: [serverId, ghost] })).toBe(`No server has the id ${ghost}.`);
    const res = await app.app.request(
      '/api/tokens',
      jsonRequest('POST', { name: 'both', serverIds: [serverId, otherServerId, serverId] }, admin.cookie),
    );
    expect(res.status).toBe(201);
    expect((await res.json()).serverIds).toEqual([serverId, otherServerId]);
  });

  it("may push metrics only for their own servers, and never set maintenance (an agent could hide another server's outage)", async () => {
    const { token } = await newToken('web only');
    const other = await app.app.request(`/api/servers/${otherServerId}/metrics`, bearer(token));
    expect(other.status).toBe(403);
    expect((await other.json()).message).toBe('This token may not push metrics for this server.');
    const maintenance = await app.app.request(
      `/api/servers/${serverId}/metrics`,
      bearer(token, { ...metrics, status: 'maintenance' }),
    );
    expect(maintenance.status).toBe(403);
    expect((await maintenance.json()).message).toBe(
      'An agent may not set maintenance: an admin sets it on the server.',
    );
    const [row] = await app.db.select().from(servers).where(eq(servers.id, serverId));
    expect(row.status).not.toBe('maintenance');
    // A token from before scoping names no server: it is refused everywhere.
    const legacy = 'ops_legacy-token-from-before-scoping-0000000000000';
    await app.db.insert(apiTokens).values({ name: 'legacy', tokenHash: hashToken(legacy) });
    expect((await app.app.request(`/api/servers/${serverId}/metrics`, bearer(legacy))).status).toBe(403);
    // A signed-in user still sets maintenance by hand.
    const byHand = await app.app.request(
      `/api/servers/${otherServerId}/metrics`,
      jsonRequest('PUT', { ...metrics, status: 'maintenance' }, admin.cookie),
    );
    expect(byHand.status).toBe(200);
  });

  it('show the token once and store only its sha256', async () => {
    const created = await newToken('cron on web-01');
    expect(created.token).toMatch(/^ops_[A-Za-z0-9_-]{40,}$/);
    const [row] = await app.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const list = await (await app.app.request('/api/tokens', jsonRequest('GET', undefined, admin.cookie))).json();
    expect(list.find((t: { id: string }) => t.id === created.id)).toMatchObject({
      name: 'cron on web-01',
      serverIds: [serverId],
      revokedAt: null,
    });
    expect(JSON.stringify(list)).not.toContain(created.token);
  });

  it('let an agent push metrics with Authorization: Bearer, and nothing else', async () => {
    const { token } = await newToken('agent');
    const ok = await app.app.request(`/api/servers/${serverId}/metrics`, bearer(token));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ cpuUsage: 5, memoryUsage: 6, diskUsage: 7, uptime: 3600 });
    expect((await app.app.request(`/api/servers/${serverId}/metrics`, bearer('ops_wrong'))).status).toBe(401);
    expect(
      (await app.app.request(`/api/servers/${serverId}/metrics`, bearer(token, { ...metrics, cpuUsage: 120 }))).status,
    ).toBe(400);
    // The token grants metrics only, not the rest of the API.
    expect(
      (await app.app.request(`/api/servers/${serverId}`, { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(401);
    const [row] = await app.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hashToken(token)));
    expect(row.lastUsedAt).not.toBeNull();
  });

  it('are refused once revoked', async () => {
    const { id, token } = await newToken('to revoke');
    expect((await app.app.request(`/api/servers/${serverId}/metrics`, bearer(token))).status).toBe(200);
    expect((await app.app.request(`/api/tokens/${id}`, jsonRequest('DELETE', undefined, admin.cookie))).status).toBe(
      200,
    );
    const refused = await app.app.request(`/api/servers/${serverId}/metrics`, bearer(token));
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toBe('Invalid or revoked API token.');
    expect(
      (
        await app.app.request(
          '/api/tokens/00000000-0000-4000-8000-000000000000',
          jsonRequest('DELETE', undefined, admin.cookie),
        )
      ).status,
    ).toBe(404);
  });

  it('are one kind of token: the admin API lists and revokes metrics tokens only, never a personal one', async () => {
    const created = await app.app.request(
      '/api/me/tokens',
      jsonRequest('POST', { name: 'admin cli', scope: 'read-write' }, admin.cookie),
    );
    const personal = (await created.json()) as { id: string; token: string };
    const list = await (await app.app.request('/api/tokens', jsonRequest('GET', undefined, admin.cookie))).json();
    expect(list.some((t: { id: string }) => t.id === personal.id)).toBe(false);
    const revoke = await app.app.request(`/api/tokens/${personal.id}`, jsonRequest('DELETE', undefined, admin.cookie));
    expect(revoke.status).toBe(404);
    const [row] = await app.db.select().from(apiTokens).where(eq(apiTokens.id, personal.id));
    expect(row.revokedAt).toBeNull();
    // The personal token acts as the admin on the API, but is no agent: it may not push metrics.
    expect(
      (await app.app.request('/api/auth/user', { headers: { Authorization: `Bearer ${personal.token}` } })).status,
    ).toBe(200);
    const push = await app.app.request(`/api/servers/${serverId}/metrics`, bearer(personal.token));
    expect(push.status).toBe(401);
    expect((await push.json()).message).toBe('Invalid or revoked API token.');
    // And an agent's token is no user.
    const { token } = await newToken('agent, not a user');
    expect((await app.app.request('/api/auth/user', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(
      401,
    );
    const [agent] = await app.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hashToken(token)));
    expect(agent.kind).toBe('metrics');
  });

  it('work with the README shell agent, run for real against the listening app', async () => {
    const { token } = await newToken('readme agent');
    const script = path.join(import.meta.dirname, 'ops-agent.sh');
    const readme = readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');
    expect(readme).toContain(readFileSync(script, 'utf8').trimEnd());
    await run('sh', [script], {
      env: { PATH: process.env.PATH, OPSHUB_URL: app.url, OPSHUB_TOKEN: token, SERVER_ID: serverId },
      timeout: 15_000,
    });
    const [row] = await app.db.select().from(servers).where(eq(servers.id, serverId));
    expect(row.metricsUpdatedAt).not.toBeNull();
    expect(row.uptime).toBeGreaterThan(0);
    for (const v of [row.cpuUsage, row.memoryUsage, row.diskUsage]) expect(v >= 0 && v <= 100).toBe(true);
    expect(row.memoryUsage).toBeGreaterThan(0);
  });
});
