import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, healthChecks, serverChecks, servers } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
/** The same database, configured as production is: loopback not allowed. */
let strict: TestContext;
let editor: TestUser;
let admin: TestUser;
let viewer: TestUser;

/** Inserted directly: servers made through POST /api/servers are probed at once. */
async function addServer(values: Partial<typeof servers.$inferInsert> & { name: string }) {
  const [row] = await t.db.insert(servers).values(values).returning();
  return row;
}

/** cookie null: signed out. */
async function call(method: string, path: string, body?: unknown, cookie: string | null = editor.cookie, app = t) {
  const res = await app.app.request(path, jsonRequest(method, body, cookie ?? undefined));
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const nulls = {
  port: null,
  path: null,
  expectStatus: null,
  expectText: null,
  warnDays: null,
  expectAddress: null,
};
const notChecked = { lastStatus: null, lastCheckedAt: null, lastError: null };

beforeAll(async () => {
  t = await createTestApp();
  strict = await createTestApp({ HEALTH_CHECK_ALLOW_CIDRS: '' }, t.database);
  editor = await createSignedInUser(t.db, { role: 'editor' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
});
afterAll(() => t.close());

describe('GET /api/servers/{id}/checks', () => {
  it('lists the implicit tcp check on monitorPort (id null) for a server without explicit checks', async () => {
    const s = await addServer({ name: 'chk-implicit', ipAddress: '127.0.0.41', hostname: 'h41', monitorPort: 2222 });
    const { status, body } = await call('GET', `/api/servers/${s.id}/checks`);
    expect(status).toBe(200);
    expect(body).toEqual([{ id: null, kind: 'tcp', target: '127.0.0.41', ...nulls, port: 2222, ...notChecked }]);
  });

  it('takes the hostname when there is no IP address, and lists nothing without an address', async () => {
    const named = await addServer({ name: 'chk-named', hostname: 'localhost', monitorPort: 22 });
    expect((await call('GET', `/api/servers/${named.id}/checks`)).body).toEqual([
      { id: null, kind: 'tcp', target: 'localhost', ...nulls, port: 22, ...notChecked },
    ]);
    const bare = await addServer({ name: 'chk-bare' });
    expect(await call('GET', `/api/servers/${bare.id}/checks`)).toEqual({ status: 200, body: [] });
  });

  it('maps the newest row from before check kinds to the implicit check (online/warning ok, offline failing)', async () => {
    const s = await addServer({ name: 'chk-legacy', ipAddress: '127.0.0.42' });
    const url = `/api/servers/${s.id}/checks`;
    const at = (m: number) => new Date(Date.UTC(2026, 10, 1, 12, m));
    await t.db.insert(healthChecks).values([
      { serverId: s.id, checkedAt: at(0), status: 'online', latencyMs: 3 },
      { serverId: s.id, checkedAt: at(5), status: 'offline', error: 'Connection refused' },
    ]);
    expect((await call('GET', url)).body[0]).toMatchObject({
      id: null,
      lastStatus: 'failing',
      lastCheckedAt: at(5).toISOString(),
      lastError: 'Connection refused',
    });
    await t.db.insert(healthChecks).values({ serverId: s.id, checkedAt: at(10), status: 'warning', latencyMs: 900 });
    expect((await call('GET', url)).body[0]).toMatchObject({ lastStatus: 'ok', lastCheckedAt: at(10).toISOString() });
  });

  it('reads each check’s last result from the newest row’s results, by checkId', async () => {
    const s = await addServer({ name: 'chk-results', ipAddress: '127.0.0.43' });
    const url = `/api/servers/${s.id}/checks`;
    const saved = await call('PUT', url, [
      { kind: 'tls', target: '127.0.0.43', port: 8443, warnDays: 10 },
      { kind: 'tcp', target: '127.0.0.43', port: 22 },
      { kind: 'dns', target: 'localhost' },
    ]);
    const [tls, tcp, dns] = saved.body.map((c: { id: string }) => c.id);
    const old = new Date(Date.UTC(2026, 10, 1, 12, 0));
    const newest = new Date(Date.UTC(2026, 10, 1, 12, 5));
    await t.db.insert(healthChecks).values([
      {
        serverId: s.id,
        checkedAt: old,
        status: 'online',
        results: [{ checkId: dns, kind: 'dns', status: 'ok', latencyMs: 1, error: null }],
      },
      {
        serverId: s.id,
        checkedAt: newest,
        status: 'warning',
        results: [
          { checkId: tcp, kind: 'tcp', status: 'ok', latencyMs: 2, error: null },
          {
            checkId: tls,
            kind: 'tls',
            status: 'warning',
            latencyMs: 7,
            error: 'certificate expires in 5 days',
            detail: 'raw',
          },
          // The implicit check's entry from before the list was set is not an explicit check's.
          { checkId: null, kind: 'tcp', status: 'failing', latencyMs: null, error: 'Connection refused' },
        ],
      },
    ]);
    const { body } = await call('GET', url, undefined, viewer.cookie);
    expect(body.map((c: { id: string }) => c.id)).toEqual([tls, tcp, dns]);
    expect(body[0]).toMatchObject({
      lastStatus: 'warning',
      lastCheckedAt: newest.toISOString(),
      lastError: 'certificate expires in 5 days',
    });
    expect(body[0]).not.toHaveProperty('detail');
    expect(body[1]).toMatchObject({ lastStatus: 'ok', lastError: null });
    // Not in the newest row: not checked in the last round.
    expect(body[2]).toMatchObject(notChecked);
  });

  it('answers whoever may see servers: viewers yes, signed-out 401, unknown server 404', async () => {
    const s = await addServer({ name: 'chk-readers', ipAddress: '127.0.0.44' });
    expect((await call('GET', `/api/servers/${s.id}/checks`, undefined, viewer.cookie)).status).toBe(200);
    expect((await call('GET', `/api/servers/${s.id}/checks`, undefined, null)).status).toBe(401);
    const missing = await call('GET', '/api/servers/00000000-0000-4000-8000-000000000000/checks');
    expect(missing).toEqual({ status: 404, body: expect.objectContaining({ message: 'Server not found.' }) });
    expect((await call('GET', '/api/servers/nope/checks')).status).toBe(404);
  });
});

describe('PUT /api/servers/{id}/checks', () => {
  it('stores the list in order and answers it in the GET shape; an empty list returns to the implicit check', async () => {
    const s = await addServer({ name: 'chk-put', ipAddress: '127.0.0.45', monitorPort: 2200 });
    const url = `/api/servers/${s.id}/checks`;
    const list = [
      { kind: 'https', target: 'localhost', port: 8443, path: '/healthz?full=1', expectStatus: 204, expectText: 'ok' },
      { kind: 'tcp', target: '127.0.0.45', port: 5432 },
      { kind: 'dns', target: 'localhost', expectAddress: '127.0.0.1' },
      { kind: 'http', target: '::1', path: null, expectStatus: null },
      { kind: 'tls', target: '127.0.0.45', warnDays: 30 },
    ];
    const put = await call('PUT', url, list);
    expect(put.status).toBe(200);
    expect(put.body).toEqual(
      list.map((c) => ({ ...nulls, ...c, id: expect.stringMatching(/^[0-9a-f-]{36}$/), ...notChecked })),
    );
    expect((await call('GET', url, undefined, viewer.cookie)).body).toEqual(put.body);
    const rows = await t.db
      .select()
      .from(serverChecks)
      .where(eq(serverChecks.serverId, s.id))
      .orderBy(asc(serverChecks.position));
    expect(rows.map((r) => [r.position, r.kind])).toEqual(list.map((c, i) => [i, c.kind]));

    // Sent back reordered (GET's answer is valid input): unchanged checks keep their ids, so their history.
    const again = await call('PUT', url, [put.body[1], put.body[0]]);
    expect(again.body.map((c: { id: string }) => c.id)).toEqual([put.body[1].id, put.body[0].id]);
    expect(await t.db.select().from(serverChecks).where(eq(serverChecks.serverId, s.id))).toHaveLength(2);

    const cleared = await call('PUT', url, []);
    expect(cleared).toEqual({
      status: 200,
      body: [{ id: null, kind: 'tcp', target: '127.0.0.45', ...nulls, port: 2200, ...notChecked }],
    });
    expect(await t.db.select().from(serverChecks).where(eq(serverChecks.serverId, s.id))).toEqual([]);
  });

  it('records a server.checks audit event with the list', async () => {
    const s = await addServer({ name: 'chk-audit', ipAddress: '127.0.0.46' });
    await call('PUT', `/api/servers/${s.id}/checks`, [
      { kind: 'http', target: '127.0.0.46', port: 8080, path: '/up' },
      { kind: 'dns', target: 'localhost', expectAddress: '127.0.0.1' },
    ]);
    const events = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'server.checks'), eq(auditLog.entityId, s.id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorId: editor.id,
      entityType: 'server',
      details: { checks: ['http 127.0.0.46:8080/up', 'dns localhost → 127.0.0.1'] },
    });
  });

  const second = (check: Record<string, unknown>) => [{ kind: 'tcp', target: '127.0.0.47', port: 22 }, check];
  it.each([
    [second({ kind: 'tcp', target: '127.0.0.47', port: 0 }), 'Check 2: port must be between 1 and 65535.'],
    [second({ kind: 'tcp', target: '127.0.0.47', port: 65536 }), 'Check 2: port must be between 1 and 65535.'],
    [second({ kind: 'tcp', target: '127.0.0.47', port: 22.5 }), 'Check 2: port must be a whole number.'],
    [second({ kind: 'tcp', target: '127.0.0.47', port: '22' }), 'Check 2: port must be a number.'],
    [second({ kind: 'tcp', target: '127.0.0.47' }), 'Check 2: port is required for a tcp check.'],
    [second({ kind: 'ping', target: '127.0.0.47' }), 'Check 2: kind must be tcp, http, https, tls, dns.'],
    [second({ target: '127.0.0.47' }), 'Check 2: kind must be tcp, http, https, tls, dns.'],
    [second({ kind: 'http' }), 'Check 2: target is required.'],
    [second({ kind: 'http', target: '  ' }), 'Check 2: target is required.'],
    [second({ kind: 'http', target: 'http://x/' }), 'Check 2: target must be a host name or an IP address.'],
    [second({ kind: 'http', target: `${'a'.repeat(256)}` }), 'Check 2: target must be at most 255 characters.'],
    [
      second({ kind: 'http', target: 'localhost', path: 'healthz' }),
      'Check 2: path must start with "/" and have no spaces.',
    ],
    [
      second({ kind: 'http', target: 'localhost', expectStatus: 99 }),
      'Check 2: expectStatus must be between 100 and 599.',
    ],
    [
      second({ kind: 'http', target: 'localhost', expectStatus: 600 }),
      'Check 2: expectStatus must be between 100 and 599.',
    ],
    [second({ kind: 'http', target: 'localhost', expectText: '' }), 'Check 2: expectText must not be empty.'],
    [
      second({ kind: 'https', target: 'localhost', expectText: 'x'.repeat(201) }),
      'Check 2: expectText must be at most 200 characters.',
    ],
    [second({ kind: 'tls', target: 'localhost', warnDays: 0 }), 'Check 2: warnDays must be between 1 and 365.'],
    [second({ kind: 'tls', target: 'localhost', warnDays: 366 }), 'Check 2: warnDays must be between 1 and 365.'],
    [
      second({ kind: 'dns', target: 'localhost', expectAddress: 'localhost' }),
      'Check 2: expectAddress must be an IP address.',
    ],
    [second({ kind: 'dns', target: '127.0.0.1' }), 'Check 2: target must be a host name for a dns check.'],
    [second({ kind: 'dns', target: 'localhost', port: 53 }), 'Check 2: port is not used by a dns check.'],
    [second({ kind: 'tcp', target: 'localhost', port: 22, path: '/' }), 'Check 2: path is not used by a tcp check.'],
    [
      second({ kind: 'tls', target: 'localhost', expectStatus: 200 }),
      'Check 2: expectStatus is not used by a tls check.',
    ],
    [second({ kind: 'http', target: 'localhost', warnDays: 3 }), 'Check 2: warnDays is not used by a http check.'],
    [
      second({ kind: 'http', target: 'localhost', expectAddress: '127.0.0.1' }),
      'Check 2: expectAddress is not used by a http check.',
    ],
    [['tcp'], 'Check 1: must be an object.'],
    [{ kind: 'tcp' }, 'The body must be a list of checks.'],
    [
      Array.from({ length: 21 }, (_, i) => ({ kind: 'tcp', target: '127.0.0.47', port: 1000 + i })),
      'A server may have at most 20 checks.',
    ],
  ])('refuses %j with 400 "%s", storing nothing', async (body, message) => {
    const s = await addServer({ name: `chk-bad-${Math.random().toString(36).slice(2, 10)}`, ipAddress: '127.0.0.47' });
    const res = await call('PUT', `/api/servers/${s.id}/checks`, body);
    expect(res).toEqual({ status: 400, body: expect.objectContaining({ message }) });
    expect(await t.db.select().from(serverChecks).where(eq(serverChecks.serverId, s.id))).toEqual([]);
  });

  it.each([
    ['169.254.169.254', '169.254.169.254 is in a denied network (HEALTH_CHECK_DENY_CIDRS)'],
    ['fe80::1', 'fe80::1 is in a denied network (HEALTH_CHECK_DENY_CIDRS)'],
    // TEST-NET-1 as data only: refused, so never connected to.
    ['192.0.2.1', '192.0.2.1 is outside the allowed networks (HEALTH_CHECK_ALLOW_CIDRS)'],
  ])('refuses target %s with 400 and the reason', async (target, reason) => {
    const s = await addServer({ name: `chk-denied-${target}`, ipAddress: '127.0.0.48' });
    const res = await call('PUT', `/api/servers/${s.id}/checks`, [
      { kind: 'tcp', target: '127.0.0.48', port: 22 },
      { kind: 'http', target, port: 80 },
    ]);
    expect(res).toEqual({
      status: 400,
      body: expect.objectContaining({ message: `Check 2: target ${target} is refused: ${reason}.` }),
    });
    expect(await t.db.select().from(serverChecks).where(eq(serverChecks.serverId, s.id))).toEqual([]);
  });

  it('refuses loopback (by address and by name) where the configuration does not allow it', async () => {
    const s = await addServer({ name: 'chk-strict', ipAddress: '127.0.0.49' });
    const url = `/api/servers/${s.id}/checks`;
    const byIp = await call('PUT', url, [{ kind: 'tcp', target: '127.0.0.49', port: 22 }], editor.cookie, strict);
    expect(byIp.status).toBe(400);
    expect(byIp.body.message).toBe(
      'Check 1: target 127.0.0.49 is refused: 127.0.0.49 is a local address (allowed only when HEALTH_CHECK_ALLOW_CIDRS lists it).',
    );
    const byName = await call('PUT', url, [{ kind: 'https', target: 'localhost' }], editor.cookie, strict);
    expect(byName.status).toBe(400);
    expect(byName.body.message).toMatch(/^Check 1: target localhost is refused: .*local address/);
    // The same list where loopback is configured (tests and demos).
    expect((await call('PUT', url, [{ kind: 'https', target: 'localhost' }])).status).toBe(200);
  });

  it('lets a dns check watch any name (it only asks the resolver), and accepts a name that does not resolve yet', async () => {
    const s = await addServer({ name: 'chk-names', ipAddress: '127.0.0.51' });
    const url = `/api/servers/${s.id}/checks`;
    const dns = await call('PUT', url, [{ kind: 'dns', target: 'localhost' }], editor.cookie, strict);
    expect(dns.status).toBe(200);
    // Tests resolve only localhost (tests/helpers/no-outside-dns.ts): this name is "not found", as a new one would be.
    const later = [{ kind: 'tcp', target: 'new-box.corp.example.com', port: 22 }];
    const res = await call('PUT', url, later, editor.cookie, strict);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ kind: 'tcp', target: 'new-box.corp.example.com' })]);
  });

  it('lets editors and admins change checks; viewers 403, signed-out 401, unknown server 404', async () => {
    const s = await addServer({ name: 'chk-roles', ipAddress: '127.0.0.50' });
    const url = `/api/servers/${s.id}/checks`;
    const list = [{ kind: 'tcp', target: '127.0.0.50', port: 22 }];
    expect((await call('PUT', url, list, viewer.cookie)).status).toBe(403);
    expect((await call('PUT', url, list, null)).status).toBe(401);
    expect(await t.db.select().from(serverChecks).where(eq(serverChecks.serverId, s.id))).toEqual([]);
    expect((await call('PUT', url, list, admin.cookie)).status).toBe(200);
    const missing = await call('PUT', '/api/servers/00000000-0000-4000-8000-000000000000/checks', list);
    expect(missing.status).toBe(404);
  });
});
