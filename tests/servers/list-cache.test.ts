import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeServer } from '../../src/servers/health';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;

const list = async (headers: Record<string, string> = {}) =>
  t.app.request('/api/servers', { headers: { Cookie: user.cookie, ...headers } });
const names = async () =>
  ((await (await list()).json()) as { name: string; status: string }[]).map((s) => `${s.name}:${s.status}`);
const call = (method: string, path: string, body?: unknown) =>
  t.app.request(path, jsonRequest(method, body, user.cookie));

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
});
afterAll(() => t.close());

describe('GET /api/servers (cached whole list)', () => {
  it('follows every kind of write, answers 304 to a matching ETag and gzip when asked', async () => {
    expect(await names()).toEqual([]);
    const a = await (await call('POST', '/api/servers', { name: 'cache-a' })).json();
    expect(await names()).toEqual(['cache-a:unknown']);
    const first = await list();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"servers-/);
    expect((await list({ 'If-None-Match': etag })).status).toBe(304);

    await call('PUT', `/api/servers/${a.id}`, { name: 'cache-a', status: 'maintenance' });
    expect(await names()).toEqual(['cache-a:maintenance']);
    expect((await list({ 'If-None-Match': etag })).status).toBe(200);
    await call('PUT', `/api/servers/${a.id}/metrics`, {
      cpuUsage: 1,
      memoryUsage: 2,
      diskUsage: 3,
      uptime: 4,
      status: 'online',
    });
    expect(await names()).toEqual(['cache-a:online']);
    await call('PUT', `/api/servers/${a.id}`, { name: 'cache-a', ipAddress: '127.0.0.1', monitorPort: 1 });
    // Offline after HEALTH_CHECK_FAILURES (2) failed checks in a row.
    for (let i = 0; i < 2; i++) await probeServer(t.db, t.config, a.id, { timeoutMs: 500 });
    expect(await names()).toEqual(['cache-a:offline']);
    const b = await (await call('POST', '/api/servers', { name: 'cache-b' })).json();
    await call('DELETE', `/api/servers/${a.id}`);
    expect(await names()).toEqual(['cache-b:unknown']);

    const gz = await list({ 'Accept-Encoding': 'gzip, br' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())[0].id).toBe(b.id);
    expect((await t.app.request('/api/servers')).status).toBe(401);
  });
});
