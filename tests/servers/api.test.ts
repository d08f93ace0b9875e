import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;

const base = {
  name: 'web-01',
  hostname: 'web-01.corp.example.com',
  ipAddress: '127.0.0.11',
  environment: 'production',
};

async function call(method: string, path: string, body?: unknown, cookie = user.cookie) {
  const res = await t.app.request(path, jsonRequest(method, body, cookie));
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
});
afterAll(() => t.close());

describe('servers API', () => {
  it('refuses signed-out callers', async () => {
    expect((await t.app.request('/api/servers')).status).toBe(401);
    expect((await t.app.request('/api/servers', jsonRequest('POST', base))).status).toBe(401);
  });

  it('creates a server with the spec defaults and answers the spec fields plus monitorPort', async () => {
    const { status, body } = await call('POST', '/api/servers', { name: 'defaults-01' });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      name: 'defaults-01',
      environment: 'development',
      status: 'unknown',
      monitorPort: 22,
      cpuUsage: 0,
      memoryUsage: 0,
      diskUsage: 0,
      uptime: 0,
      lastHealthCheck: null,
      metricsUpdatedAt: null,
      hostname: null,
    });
    expect(Object.keys(body).sort()).toEqual(
      [
        'id',
        'name',
        'hostname',
        'ipAddress',
        'domain',
        'network',
        'environment',
        'operatingSystem',
        'serverType',
        'hardwareModel',
        'serverLocation',
        'primaryFunction',
        'secondaryFunction',
        'tertiaryFunction',
        'teamOwner',
        'tags',
        'keyContacts',
        'description',
        'notes',
        'status',
        'cpuUsage',
        'memoryUsage',
        'diskUsage',
        'uptime',
        'lastHealthCheck',
        'metricsUpdatedAt',
        'managedBy',
        'monitorPort',
        'consecutiveFailures',
        'flappingSince',
        'maintenanceWindowId',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  });

  it('keeps tags: a list or comma-separated text, trimmed, lower case, no repeats; bad ones refused with the tag named', async () => {
    const made = await call('POST', '/api/servers', { name: 'tags-01', tags: [' PCI ', 'db', 'pci', ''] });
    expect(made.status).toBe(201);
    expect(made.body.tags).toEqual(['pci', 'db']);
    const put = await call('PUT', `/api/servers/${made.body.id}`, { name: 'tags-01', tags: 'Edge, eu-west/1' });
    expect(put.body.tags).toEqual(['edge', 'eu-west/1']);
    expect((await call('GET', `/api/servers/${made.body.id}`)).body.tags).toEqual(['edge', 'eu-west/1']);
    const bad = await call('POST', '/api/servers', { name: 'tags-02', tags: ['ok', '<script>'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Tag "<script>" may use letters, digits, spaces and . _ : / - only.');
    const many = await call('POST', '/api/servers', {
      name: 'tags-03',
      tags: Array.from({ length: 21 }, (_, i) => `t${i}`),
    });
    expect(many.body.message).toBe('A server takes at most 20 tags.');
    expect((await call('POST', '/api/servers', { name: 'tags-04', tags: 5 })).status).toBe(400);
    const page = await (
      await t.app.request(`/infrastructure/${made.body.id}`, { headers: { Cookie: user.cookie } })
    ).text();
    expect(page).toMatch(/<dt>Tags<\/dt><dd>.*edge.*eu-west\/1/);
  });

  it('lists, reads, updates and deletes', async () => {
    const created = (
      await call('POST', '/api/servers', { ...base, operatingSystem: 'Debian 12', teamOwner: 'Platform' })
    ).body;
    const list = await call('GET', '/api/servers');
    expect(list.body.map((s: { name: string }) => s.name)).toContain('web-01');
    expect((await call('GET', `/api/servers/${created.id}`)).body.ipAddress).toBe('127.0.0.11');
    const updated = await call('PUT', `/api/servers/${created.id}`, {
      ...base,
      name: 'web-01b',
      status: 'maintenance',
      monitorPort: 8443,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'web-01b',
      status: 'maintenance',
      monitorPort: 8443,
      operatingSystem: null,
    });
    expect((await call('DELETE', `/api/servers/${created.id}`)).status).toBe(200);
    expect((await call('GET', `/api/servers/${created.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/servers/${created.id}`)).status).toBe(404);
  });

  it('filters the list by search, environment and status', async () => {
    await call('POST', '/api/servers', {
      name: 'db-filter-1',
      environment: 'staging',
      primaryFunction: 'PostgreSQL primary',
    });
    await call('POST', '/api/servers', {
      name: 'db-filter-2',
      environment: 'production',
      keyContacts: 'ada@example.com',
    });
    const byFunction = await call('GET', '/api/servers?q=postgresql');
    expect(byFunction.body.map((s: { name: string }) => s.name)).toEqual(['db-filter-1']);
    const byContact = await call('GET', '/api/servers?q=ADA@');
    expect(byContact.body.map((s: { name: string }) => s.name)).toEqual(['db-filter-2']);
    const byEnv = await call('GET', '/api/servers?q=db-filter&environment=production');
    expect(byEnv.body.map((s: { name: string }) => s.name)).toEqual(['db-filter-2']);
    expect((await call('GET', '/api/servers?q=db-filter&status=online')).body).toEqual([]);
  });

  it('answers at most ?limit= servers (1–100), the first in natural order; a limit it does not know is ignored', async () => {
    for (const name of ['lim-10', 'lim-2', 'lim-1']) await call('POST', '/api/servers', { name });
    const names = async (query: string) => {
      const res = await call('GET', `/api/servers?${query}`);
      expect(res.status).toBe(200);
      return res.body.map((s: { name: string }) => s.name);
    };
    expect(await names('q=lim-&limit=2')).toEqual(['lim-1', 'lim-2']);
    expect(await names('q=lim-&limit=100')).toEqual(['lim-1', 'lim-2', 'lim-10']);
    for (const bad of ['0', '101', '2.5', 'two', '-1', ''])
      expect(await names(`q=lim-&limit=${bad}`)).toEqual(['lim-1', 'lim-2', 'lim-10']);
    // Without other filters too: the first of the whole inventory.
    const all = await names('');
    expect(all.length).toBeGreaterThan(3);
    expect(await names('limit=3')).toEqual(all.slice(0, 3));
  });

  it('keeps server names unique (409), on create and on rename', async () => {
    await call('POST', '/api/servers', { name: 'unique-01' });
    const dup = await call('POST', '/api/servers', { name: 'unique-01' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/already exists/);
    const other = (await call('POST', '/api/servers', { name: 'unique-02' })).body;
    expect((await call('PUT', `/api/servers/${other.id}`, { name: 'unique-01' })).status).toBe(409);
    expect(
      (await call('PUT', `/api/servers/${other.id}`, { name: 'unique-02', notes: 'same name is fine' })).status,
    ).toBe(200);
  });

  it.each([
    [{}, 'Server name is required.'],
    [{ name: '   ' }, 'Server name is required.'],
    [{ name: 'x'.repeat(101) }, 'Server name must be at most 100 characters.'],
    [{ name: 'h1', hostname: 'bad host!' }, 'Hostname must be a valid host name.'],
    [{ name: 'h2', hostname: '-leading.example.com' }, 'Hostname must be a valid host name.'],
    [{ name: 'h3', hostname: `${'a'.repeat(63)}.`.repeat(4) + 'com' }, 'Hostname must be at most 255 characters.'],
    [{ name: 'i1', ipAddress: '127.0.0.256' }, 'IP address must be a valid IPv4 or IPv6 address.'],
    [{ name: 'i2', ipAddress: 'localhost' }, 'IP address must be a valid IPv4 or IPv6 address.'],
    [{ name: 'i3', ipAddress: '::1::2' }, 'IP address must be a valid IPv4 or IPv6 address.'],
    [{ name: 'e1', environment: 'testing' }, 'Environment must be production, staging or development.'],
    [{ name: 's1', status: 'down' }, 'Status must be online, warning, offline, maintenance or unknown.'],
    [{ name: 'p1', monitorPort: 0 }, 'Monitor port must be between 1 and 65535.'],
    [{ name: 'p2', monitorPort: 65536 }, 'Monitor port must be between 1 and 65535.'],
    [{ name: 'p3', monitorPort: 22.5 }, 'Monitor port must be a whole number.'],
  ])('refuses bad input %j with 400', async (input, message) => {
    const { status, body } = await call('POST', '/api/servers', input);
    expect(status).toBe(400);
    expect(body.message).toBe(message);
  });

  it('accepts IPv6, a trailing-dot FQDN and the top port', async () => {
    const { status, body } = await call('POST', '/api/servers', {
      name: 'v6',
      ipAddress: '::1',
      hostname: 'loopback.corp.example.com.',
      monitorPort: 65535,
    });
    expect(status).toBe(201);
    expect(body.ipAddress).toBe('::1');
    expect((await call('POST', '/api/servers', { name: 'v6b', ipAddress: '::ffff:127.0.0.1' })).status).toBe(201);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    expect((await call('GET', '/api/servers/not-a-uuid')).status).toBe(404);
    expect((await call('PUT', '/api/servers/00000000-0000-4000-8000-000000000000', { name: 'ghost' })).status).toBe(
      404,
    );
    expect(
      (
        await call('PUT', '/api/servers/00000000-0000-4000-8000-000000000000/metrics', {
          cpuUsage: 1,
          memoryUsage: 1,
          diskUsage: 1,
          uptime: 1,
        })
      ).status,
    ).toBe(404);
  });

  it('stores metrics from a session, with validation and an audited status change', async () => {
    const s = (await call('POST', '/api/servers', { name: 'metrics-01' })).body;
    const res = await call('PUT', `/api/servers/${s.id}/metrics`, {
      cpuUsage: 12.5,
      memoryUsage: 40,
      diskUsage: 99,
      uptime: 90061.7,
      status: 'online',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cpuUsage: 12.5, memoryUsage: 40, diskUsage: 99, uptime: 90061, status: 'online' });
    expect(s.metricsUpdatedAt).toBeNull();
    expect(Date.now() - Date.parse(res.body.metricsUpdatedAt)).toBeLessThan(60_000);
    const audits = await t.db.select().from(auditLog);
    expect(audits.some((a) => a.action === 'server.status' && a.entityId === s.id)).toBe(true);
    for (const bad of [
      { cpuUsage: 101, memoryUsage: 1, diskUsage: 1, uptime: 1 },
      { cpuUsage: 1, memoryUsage: -1, diskUsage: 1, uptime: 1 },
      { cpuUsage: 1, memoryUsage: 1, diskUsage: 1, uptime: -5 },
      { cpuUsage: '5', memoryUsage: 1, diskUsage: 1, uptime: 1 },
      { cpuUsage: 1, memoryUsage: 1, diskUsage: 1, uptime: 1, status: 'up' },
    ]) {
      const r = await call('PUT', `/api/servers/${s.id}/metrics`, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(typeof r.body.message).toBe('string');
    }
  });

  it('refuses cross-site writes', async () => {
    const res = await t.app.request('/api/servers', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json', Cookie: user.cookie },
      body: JSON.stringify(base),
    });
    expect(res.status).toBe(403);
  });
});

describe('server document links', () => {
  it('links, lists and unlinks documents (body or query documentId)', async () => {
    const s = (await call('POST', '/api/servers', { name: 'links-01' })).body;
    const [doc] = await t.db
      .insert(documents)
      .values({ space: 'knowledge', title: 'Restart runbook', content: '# Restart' })
      .returning();
    const [doc2] = await t.db
      .insert(documents)
      .values({ space: 'documents', title: 'Build sheet', content: 'x' })
      .returning();
    const linked = await call('POST', `/api/servers/${s.id}/documents`, {
      documentId: doc.id,
      documentType: 'runbook',
    });
    expect(linked.status).toBe(201);
    await call('POST', `/api/servers/${s.id}/documents`, { documentId: doc2.id, documentType: 'build' });
    const list = await call('GET', `/api/servers/${s.id}/documents`);
    expect(list.body.map((l: { title: string; documentType: string }) => [l.title, l.documentType])).toEqual([
      ['Build sheet', 'build'],
      ['Restart runbook', 'runbook'],
    ]);
    const { linkedServersOf } = await import('../../src/runbooks/service');
    expect((await linkedServersOf(t.db, doc.id)).map((x) => x.name)).toEqual(['links-01']);

    expect((await call('DELETE', `/api/servers/${s.id}/documents`, { documentId: doc.id })).status).toBe(200);
    expect((await call('DELETE', `/api/servers/${s.id}/documents?documentId=${doc2.id}`)).status).toBe(200);
    expect((await call('GET', `/api/servers/${s.id}/documents`)).body).toEqual([]);
    expect((await call('DELETE', `/api/servers/${s.id}/documents`, { documentId: doc.id })).status).toBe(404);
  });

  it('refuses bad links', async () => {
    const s = (await call('POST', '/api/servers', { name: 'links-02' })).body;
    expect((await call('POST', `/api/servers/${s.id}/documents`, { documentId: 'nope' })).status).toBe(400);
    expect(
      (await call('POST', `/api/servers/${s.id}/documents`, { documentId: '00000000-0000-4000-8000-000000000000' }))
        .status,
    ).toBe(404);
    expect((await call('DELETE', `/api/servers/${s.id}/documents`)).status).toBe(400);
  });
});
