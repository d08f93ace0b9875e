import { expect } from 'vitest';
import { jsonRequest, type TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';

/** Calls of the living-documentation tests: the app as a user (or a bearer token), JSON in and out. */
export function runbookCalls(t: () => TestContext) {
  async function call(who: TestUser | string, method: string, path: string, body?: unknown) {
    const init = jsonRequest(method, body, typeof who === 'string' ? undefined : who.cookie);
    if (typeof who === 'string') (init.headers as Record<string, string>).Authorization = `Bearer ${who}`;
    const res = await t().app.request(path, init);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
  /** A call that must answer `status` (200 unless told). */
  async function ok(who: TestUser | string, method: string, path: string, body?: unknown, status = 200) {
    const res = await call(who, method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  }
  /** A server with every identity field set, in maintenance (never probed; loopback addresses only). */
  async function server(who: TestUser, name: string, extra: Record<string, unknown> = {}) {
    return ok(
      who,
      'POST',
      '/api/servers',
      {
        name,
        hostname: `${name}.corp.example.com`,
        ipAddress: '127.0.1.1',
        operatingSystem: 'Ubuntu 22.04',
        environment: 'production',
        serverType: 'Virtual',
        domain: 'corp.example.com',
        network: 'DMZ',
        status: 'maintenance',
        ...extra,
      },
      201,
    );
  }
  /** A knowledge item (or document) linked to the server. */
  async function linkedItem(who: TestUser, serverId: string, title: string, extra: Record<string, unknown> = {}) {
    const base = extra.base === 'documents' ? '/api/documents' : '/api/knowledge-base';
    const { base: _b, ...fields } = extra;
    const item = await ok(who, 'POST', base, { title, content: `${title} steps`, ...fields }, 201);
    await ok(who, 'POST', `/api/servers/${serverId}/documents`, { documentId: item.id }, 201);
    return item;
  }
  /** The server's form as PUT sends it, with `changes`. */
  const form = (s: Record<string, unknown>, changes: Record<string, unknown> = {}) => {
    const { id: _id, createdAt: _c, updatedAt: _u, lastHealthCheck: _l, metricsUpdatedAt: _m, ...rest } = s;
    const { cpuUsage: _cpu, memoryUsage: _mem, diskUsage: _disk, uptime: _up, ...fields } = rest;
    return { ...fields, ...changes };
  };
  return { call, ok, server, linkedItem, form };
}
