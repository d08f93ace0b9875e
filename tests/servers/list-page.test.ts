import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintenanceWindows, servers, serverUptime } from '../../src/db/schema';
import { nameOrder } from '../../src/servers/list-order';
import type { ServerPage } from '../../src/servers/shared/list';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;

async function call(method: string, path: string, body?: unknown) {
  const res = await t.app.request(path, jsonRequest(method, body, user.cookie));
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const page = async (query: string) => {
  const res = await call('GET', `/api/servers?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ServerPage;
};
const names = async (query: string) => (await page(query)).servers.map((s) => s.name);

type NewServer = Partial<typeof servers.$inferInsert> & { name: string };
const add = async (...rows: NewServer[]) => t.db.insert(servers).values(rows).returning();

const metricsUpdatedAt = new Date('2026-11-01T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
  // Natural order differs from the database's: pg-2 before pg-10, and "PG-3" between them ignoring case.
  await add(
    { name: 'pg-10', environment: 'production', status: 'online', cpuUsage: 30, metricsUpdatedAt },
    { name: 'pg-2', environment: 'staging', status: 'offline', teamOwner: 'Storage team' },
    { name: 'PG-3', environment: 'production', status: 'warning', cpuUsage: 95, metricsUpdatedAt },
    { name: 'pg-1', environment: 'development', status: 'online', operatingSystem: 'Debian 12' },
    { name: 'pg-11', environment: 'production', status: 'offline', ipAddress: '127.0.0.77' },
    { name: 'pg-20', environment: 'staging', status: 'maintenance', cpuUsage: 5, metricsUpdatedAt },
    { name: 'pg-9', environment: 'development', status: 'unknown' },
  );
});
afterAll(() => t.close());

describe('GET /api/servers?page= (one page of the inventory)', () => {
  it('pages in natural name order and says how many match', async () => {
    const first = await page('page=1&pageSize=3');
    expect(first).toMatchObject({ total: 7, page: 1, pageSize: 3 });
    expect(first.servers.map((s) => s.name)).toEqual(['pg-1', 'pg-2', 'PG-3']);
    expect(await names('page=2&pageSize=3')).toEqual(['pg-9', 'pg-10', 'pg-11']);
    expect(await names('page=3&pageSize=3')).toEqual(['pg-20']);
    // Past the last page: nothing (a client paging until an empty page ends), not the last page again.
    expect(await page('page=4&pageSize=3')).toMatchObject({ servers: [], total: 7, page: 4 });
    // The default page size is the table's (50); a row is the server as GET /api/servers/{id} answers it, and more.
    const all = await page('page=1');
    expect(all.pageSize).toBe(50);
    const single = (await call('GET', `/api/servers/${all.servers[0].id}`)).body;
    const { documents: _documents, ...fields } = single;
    expect(all.servers[0]).toMatchObject(fields);
    expect(all.servers[0]).toMatchObject({ maintenanceWindowId: null, flappingSince: null });
    expect(all.servers[0]).not.toHaveProperty('availability');
  });

  it('filters by environment, status and the spec search fields, on the server', async () => {
    expect(await page('page=1&environment=production')).toMatchObject({ total: 3 });
    expect(await names('page=1&environment=production')).toEqual(['PG-3', 'pg-10', 'pg-11']);
    expect(await names('page=1&status=offline')).toEqual(['pg-2', 'pg-11']);
    expect(await names('page=1&environment=staging&status=offline')).toEqual(['pg-2']);
    expect(await names('page=1&q=storage')).toEqual(['pg-2']); // team
    expect(await names('page=1&q=DEBIAN')).toEqual(['pg-1']); // operating system, any case
    expect(await names('page=1&q=127.0.0.77')).toEqual(['pg-11']); // IP address
    expect(await names('page=1&q=pg-1')).toEqual(['pg-1', 'pg-10', 'pg-11']);
    // LIKE wildcards are plain text.
    expect(await page('page=1&q=%25')).toMatchObject({ total: 0, servers: [] });
    expect(await names('pageSize=2&page=2&q=pg-1')).toEqual(['pg-11']);
  });

  it('sorts by a column, either way, names breaking ties', async () => {
    expect(await names('sort=-server')).toEqual(['pg-20', 'pg-11', 'pg-10', 'pg-9', 'PG-3', 'pg-2', 'pg-1']);
    // Problems first: offline, warning, online, maintenance, unknown.
    expect(await names('sort=status')).toEqual(['pg-11', 'pg-2', 'PG-3', 'pg-1', 'pg-10', 'pg-20', 'pg-9']);
    // A server that never pushed metrics sorts below every known value.
    expect((await names('sort=-cpu')).slice(0, 3)).toEqual(['PG-3', 'pg-10', 'pg-20']);
    expect(await names('sort=environment&environment=production&pageSize=2&page=2')).toEqual(['pg-11']);
    expect((await page('sort=status&pageSize=2&page=2')).total).toBe(7);
  });

  it('refuses parameters it does not know with 400 { message } (the unpaged list still ignores them)', async () => {
    const cases: [string, RegExp][] = [
      ['page=0', /page must be 1 or more/],
      ['page=abc', /page must be a number/],
      ['page=1.5', /page must be a whole number/],
      ['pageSize=0', /pageSize must be between 1 and 200/],
      ['pageSize=201', /pageSize must be between 1 and 200/],
      ['page=1&sort=name', /sort must be one of server, status/],
      ['page=1&status=down', /status must be one of/],
      ['page=1&environment=prod', /environment must be one of/],
      ['page=1&columns=secrets', /columns may name availability/],
      [`page=1&q=${'x'.repeat(201)}`, /q must be at most 200 characters/],
    ];
    for (const [query, message] of cases) {
      const res = await call('GET', `/api/servers?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(message);
    }
    const legacy = await call('GET', '/api/servers?status=down');
    expect(legacy.status).toBe(200);
    expect(legacy.body).toHaveLength(7);
    expect((await t.app.request('/api/servers?page=1')).status).toBe(401);
  });

  it('shows a server in a maintenance window as maintenance (its stored status stays) and marks flapping', async () => {
    const [window] = await t.db
      .insert(maintenanceWindows)
      .values({
        name: 'Patch night',
        startsAt: new Date(Date.now() - 3600_000),
        endsAt: new Date(Date.now() + 3600_000),
      })
      .returning();
    const flapping = new Date('2026-11-27T10:00:00Z');
    await t.db
      .update(servers)
      .set({ maintenanceWindowId: window.id, flappingSince: flapping })
      .where(eq(servers.name, 'pg-10'));
    try {
      expect(await names('page=1&status=maintenance')).toEqual(['pg-10', 'pg-20']);
      expect(await names('page=1&status=online')).toEqual(['pg-1']);
      const [row] = (await page('page=1&q=pg-10')).servers;
      expect(row).toMatchObject({
        status: 'online',
        maintenanceWindowId: window.id,
        flappingSince: flapping.toISOString(),
      });
      expect((await names('sort=status')).indexOf('pg-10')).toBe(4); // with maintenance, after online
      const html = await (await t.app.request('/infrastructure?q=pg-10', { headers: { Cookie: user.cookie } })).text();
      expect(html).toMatch(/status-dot[^>]*><\/span> (<!-- -->)?maintenance<\/span>/);
      expect(html).toContain('>flapping</span>');
    } finally {
      await t.db
        .update(servers)
        .set({ maintenanceWindowId: null, flappingSince: null })
        .where(eq(servers.name, 'pg-10'));
    }
  });

  it('adds availability (uptime %) for the page rows when columns=availability, and sorts by it', async () => {
    const byName = async (name: string) => (await t.db.select().from(servers).where(eq(servers.name, name)))[0];
    const [pg1, pg9] = [await byName('pg-1'), await byName('pg-9')];
    await t.db.insert(serverUptime).values([
      { serverId: pg1.id, pct24h: 100, pct7d: 99.5, pct30d: 99.9, pct90d: null },
      { serverId: pg9.id, pct24h: 50, pct7d: 90, pct30d: 95.25, pct90d: 97 },
    ]);
    const dev = await page('page=1&environment=development&columns=availability');
    expect(dev.servers.map((s) => [s.name, s.availability])).toEqual([
      ['pg-1', { '24h': 100, '7d': 99.5, '30d': 99.9, '90d': null }],
      ['pg-9', { '24h': 50, '7d': 90, '30d': 95.25, '90d': 97 }],
    ]);
    const other = await page('page=1&q=pg-11&columns=availability');
    expect(other.servers[0].availability).toBeNull();
    expect(await names('sort=-availability&pageSize=2')).toEqual(['pg-1', 'pg-9']);
  });

  it('follows adds, renames and deletes, and health checks never rebuild the name order', async () => {
    const before = await nameOrder(t.db);
    // What a round writes: status and last check, for every server.
    await t.db.update(servers).set({ status: 'offline', lastHealthCheck: new Date(), statusChangedAt: new Date() });
    expect(await nameOrder(t.db)).toBe(before);
    expect(await names('page=1&pageSize=3')).toEqual(['pg-1', 'pg-2', 'PG-3']);

    const created = await call('POST', '/api/servers', { name: 'pg-0', status: 'maintenance' });
    expect(created.status).toBe(201);
    expect(await names('page=1&pageSize=3')).toEqual(['pg-0', 'pg-1', 'pg-2']);
    const renamed = await call('PUT', `/api/servers/${created.body.id}`, { name: 'pg-15', status: 'maintenance' });
    expect(renamed.status).toBe(200);
    expect(await names('sort=-server&pageSize=3')).toEqual(['pg-20', 'pg-15', 'pg-11']);
    expect(await nameOrder(t.db)).not.toBe(before);
    await call('DELETE', `/api/servers/${created.body.id}`);
    expect(await page('page=1')).toMatchObject({ total: 7 });
    expect(await names('sort=-server&pageSize=2')).toEqual(['pg-20', 'pg-11']);
  });
});

describe('/infrastructure reads one page without JavaScript', () => {
  it('renders the sorted page of ?sort= and ?page=, with plain links that keep the filters and the sort', async () => {
    const res = await t.app.request('/infrastructure?sort=-server&environment=production&page=2&junk=1', {
      headers: { Cookie: user.cookie },
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    // Three production servers, 50 a page: page 2 does not exist, so the last page is shown.
    expect([...html.matchAll(/server-cell__name">([^<]+)</g)].map((m) => m[1])).toEqual(['pg-11', 'pg-10', 'PG-3']);
    expect(html).toContain('<input type="hidden" name="sort" value="-server"/>');
    // An unknown sort or page is ignored on the page (the API refuses it).
    const lenient = await t.app.request('/infrastructure?sort=bogus&page=-4', { headers: { Cookie: user.cookie } });
    expect(lenient.status).toBe(200);
    expect([...(await lenient.text()).matchAll(/server-cell__name">([^<]+)</g)].map((m) => m[1])[0]).toBe('pg-1');
  });

  it('ignores parameters named like Object.prototype members on the page and in the API', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      const res = await t.app.request(`/infrastructure?${name}=1`, { headers: { Cookie: user.cookie } });
      expect(res.status, name).toBe(200);
      expect((await call('GET', `/api/servers?${name}=1&page=1`)).status, name).toBeLessThan(500);
    }
  });
});
