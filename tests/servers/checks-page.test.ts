import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthChecks, serverChecks, servers } from '../../src/db/schema';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;

const page = async (path: string, user: TestUser) => {
  const res = await t.app.request(path, { headers: { Cookie: user.cookie } });
  expect(res.status).toBe(200);
  return res.text();
};
/** The Checks card's HTML (up to the next card). */
const checksCard = (html: string) => {
  const start = html.indexOf('id="checks"');
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
};
const at = (m: number) => new Date(Date.UTC(2026, 10, 1, 12, m));

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  editor = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
});
afterAll(() => t.close());

describe('the Checks card on the server page', () => {
  it('shows each check, its last result and its history; the raw error only to admins', async () => {
    const [s] = await t.db
      .insert(servers)
      .values({ name: 'card-01', ipAddress: '127.0.0.61', status: 'warning' })
      .returning();
    const [http, tls] = await t.db
      .insert(serverChecks)
      .values([
        {
          serverId: s.id,
          position: 0,
          kind: 'http',
          target: '127.0.0.61',
          port: 8080,
          path: '/healthz',
          expectStatus: 204,
        },
        { serverId: s.id, position: 1, kind: 'tls', target: 'localhost', port: 8443, warnDays: 30 },
      ])
      .returning();
    const round = (m: number, httpStatus: 'ok' | 'failing') => ({
      serverId: s.id,
      checkedAt: at(m),
      status: 'warning' as const,
      results: [
        {
          checkId: http.id,
          kind: 'http' as const,
          status: httpStatus,
          latencyMs: httpStatus === 'ok' ? 12 : null,
          error: httpStatus === 'ok' ? null : 'connection refused',
          detail: httpStatus === 'ok' ? null : 'connect ECONNREFUSED 127.0.0.61:8080',
        },
        {
          checkId: tls.id,
          kind: 'tls' as const,
          status: 'warning' as const,
          latencyMs: 4,
          error: 'certificate expires in 5 days',
        },
      ],
    });
    // Legacy row first (no results): not an explicit check's history.
    await t.db
      .insert(healthChecks)
      .values([
        { serverId: s.id, checkedAt: at(0), status: 'online', latencyMs: 1 },
        round(5, 'ok'),
        round(10, 'ok'),
        round(15, 'failing'),
      ]);

    const forAdmin = checksCard(await page(`/infrastructure/${s.id}`, admin));
    expect(forAdmin).toContain('http 127.0.0.61:8080/healthz');
    expect(forAdmin).toContain('Expects status 204');
    expect(forAdmin).toContain('tls localhost:8443');
    expect(forAdmin).toContain('Expects warning under 30 days');
    expect(forAdmin).toContain('connection refused');
    expect(forAdmin).toContain('connect ECONNREFUSED 127.0.0.61:8080');
    expect(forAdmin).toContain('certificate expires in 5 days');
    expect(forAdmin).toContain('aria-label="Last 3 results: 2 ok, 0 warning, 1 failing"');
    expect(forAdmin).toContain('aria-label="Last 3 results: 0 ok, 3 warning, 0 failing"');
    expect(forAdmin.match(/class="check-mark check-mark--/g)).toHaveLength(6);
    // Oldest left: the http check's marks read ok, ok, failing.
    const marks = [...forAdmin.matchAll(/check-mark--(\w+)/g)].map((m) => m[1]).slice(0, 3);
    expect(marks).toEqual(['ok', 'ok', 'failing']);
    expect(forAdmin).toMatch(/title="[^"]+: failing \(connection refused\)"/);

    for (const reader of [editor, viewer]) {
      const card = checksCard(await page(`/infrastructure/${s.id}`, reader));
      expect(card).toContain('connection refused');
      expect(card).not.toContain('ECONNREFUSED');
    }
  });

  it('shows the implicit check with a legacy row’s result, and says when there is nothing to check', async () => {
    const [s] = await t.db
      .insert(servers)
      .values({ name: 'card-02', hostname: 'localhost', monitorPort: 2222, status: 'offline' })
      .returning();
    await t.db.insert(healthChecks).values({ serverId: s.id, checkedAt: at(0), status: 'offline', error: 'timed out' });
    const card = checksCard(await page(`/infrastructure/${s.id}`, viewer));
    expect(card).toContain('tcp localhost:2222');
    expect(card).toContain('(implicit: the monitor port)');
    expect(card).toContain('failing');
    expect(card).toContain('timed out');

    const [bare] = await t.db.insert(servers).values({ name: 'card-03' }).returning();
    expect(checksCard(await page(`/infrastructure/${bare.id}`, viewer))).toContain('No checks');
  });

  it('says "Not checked yet" for a check without a result in the newest round', async () => {
    const [s] = await t.db.insert(servers).values({ name: 'card-04', ipAddress: '127.0.0.64' }).returning();
    await t.db
      .insert(serverChecks)
      .values({ serverId: s.id, kind: 'dns', target: 'localhost', expectAddress: '127.0.0.1' });
    const card = checksCard(await page(`/infrastructure/${s.id}`, editor));
    expect(card).toContain('dns localhost → 127.0.0.1');
    expect(card).toContain('Not checked yet.');
  });
});
