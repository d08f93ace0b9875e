import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/db/schema';
import { buildFleetReport } from '../../../src/reports/service';
import { rollUpHealth } from '../../../src/servers/history/rollup';
import { refreshServerUptime } from '../../../src/servers/history/uptime';
import { createTestApp, jsonRequest, type TestContext } from '../../helpers/app';
import { createSignedInUser, type TestUser } from '../../helpers/users';
import { addChecks, addServers, directUptime } from './support';

let t: TestContext;
let admin: TestUser;
let viewer: TestUser;
let good: string;
let bad: string;
let empty: string;
let staging: string;
const NOW = new Date();
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000);

/** n checks five minutes apart ending a minute ago, `down` of them offline. */
const series = (n: number, down: number): [Date, string][] =>
  Array.from({ length: n }, (_, i) => [minutesAgo(1 + 5 * i), i < down ? 'offline' : 'online']);

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  [good, bad, empty] = await addServers(t.db, ['prod-good', 'prod-bad', 'prod-empty']);
  [staging] = await addServers(t.db, ['stage-bad'], 'staging');
  await addChecks(t.db, good, series(100, 0));
  await addChecks(t.db, bad, series(100, 5));
  await addChecks(t.db, staging, series(100, 50));
  await rollUpHealth(t.db, { now: NOW });
  await refreshServerUptime(t.db, NOW);
});
afterAll(() => t.close());

const get = (path: string, user?: TestUser) => t.app.request(path, { headers: user ? { Cookie: user.cookie } : {} });

describe('GET /api/servers/{id}/uptime', () => {
  it('answers each period in percent for any reader, null where there are no checks', async () => {
    const res = await get(`/api/servers/${bad}/uptime`, viewer);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['24h', '30d', '7d', '90d']);
    expect(body).toEqual(await directUptime(t.db, bad, new Date()));
    expect(body['30d']).toBe(95);
    expect(await (await get(`/api/servers/${empty}/uptime`, viewer)).json()).toEqual({
      '24h': null,
      '7d': null,
      '30d': null,
      '90d': null,
    });
  });

  it('404 for an unknown server, 400 for a bad id, 401 signed out', async () => {
    expect((await get('/api/servers/00000000-0000-4000-8000-000000000000/uptime', viewer)).status).toBe(404);
    const badId = await get('/api/servers/not-an-id/uptime', viewer);
    expect(badId.status).toBe(400);
    expect((await badId.json()).message).toBeTruthy();
    expect((await get(`/api/servers/${good}/uptime`)).status).toBe(401);
  });
});

describe('SLA targets', () => {
  it('admins only: a viewer gets 403 reading or writing', async () => {
    expect((await get('/api/admin/sla-targets', viewer)).status).toBe(403);
    const put = await t.app.request('/api/admin/sla-targets', jsonRequest('PUT', { production: 99 }, viewer.cookie));
    expect(put.status).toBe(403);
    expect((await get('/admin/sla-targets', viewer)).status).toBe(403);
  });

  it('validates targets (0–100 or null, known environments only)', async () => {
    for (const body of [{ production: 101 }, { production: -1 }, { production: '99' }, { moon: 99 }, [99]]) {
      const res = await t.app.request('/api/admin/sla-targets', jsonRequest('PUT', body, admin.cookie));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toBeTruthy();
    }
  });

  it('stores, answers and audits the targets; null removes one', async () => {
    const put = await t.app.request(
      '/api/admin/sla-targets',
      jsonRequest('PUT', { production: 99.5, staging: 90, development: 80 }, admin.cookie),
    );
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ production: 99.5, staging: 90, development: 80 });
    const cleared = await t.app.request(
      '/api/admin/sla-targets',
      jsonRequest('PUT', { development: null }, admin.cookie),
    );
    expect(await cleared.json()).toEqual({ production: 99.5, staging: 90, development: null });
    expect(await (await get('/api/admin/sla-targets', admin)).json()).toEqual({
      production: 99.5,
      staging: 90,
      development: null,
    });
    const events = await t.db.select().from(auditLog).where(eq(auditLog.action, 'sla_targets.update'));
    expect(events).toHaveLength(2);
    expect(events.every((e) => e.actorId === admin.id)).toBe(true);
  });

  it('the admin page edits the targets without JavaScript and lists who missed them', async () => {
    const form = new URLSearchParams({ production: '99.5', staging: '90', development: '' });
    const res = await t.app.request('/admin/sla-targets', {
      method: 'POST',
      headers: {
        Cookie: admin.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'http://localhost:3000',
      },
      body: form.toString(),
    });
    expect(res.status).toBe(303);
    const page = await (await get('/admin/sla-targets', admin)).text();
    expect(page).toContain('prod-bad');
    expect(page).toContain('stage-bad');
    expect(page).not.toContain('prod-good');
  });

  it('the health report lists uptime per environment and the servers that missed their SLA', async () => {
    const report = await buildFleetReport(t.db);
    expect(report.slaMissed.rows.map((s) => s.name)).toEqual(['stage-bad', 'prod-bad']);
    expect(report.slaMissed.rows[1]).toMatchObject({ uptime30d: 95, target: 99.5 });
    const production = report.uptime.find((u) => u.environment === 'production');
    expect(production).toEqual({ environment: 'production', uptime30d: 97.5, target: 99.5, missed: 1 });
    const html = await (await get('/reports/health', viewer)).text();
    expect(html).toContain('Servers that missed their SLA');
    expect(html).toMatch(/prod-bad[\s\S]*95\.000%[\s\S]*99\.5%/);
  });

  it('the detail page shows the uptime card with the SLA target met or missed', async () => {
    const page = await (await get(`/infrastructure/${bad}`, viewer)).text();
    expect(page).toContain('Uptime');
    expect(page).toMatch(/data-period="30d"[^>]*>95\.00%/);
    expect(page).toMatch(/data-sla[^>]*>99\.5%[\s\S]{0,80}missed/);
    const goodPage = await (await get(`/infrastructure/${good}`, viewer)).text();
    expect(goodPage).toMatch(/data-sla[^>]*>99\.5%[\s\S]{0,80}met/);
  });

  it('the card reads server_uptime (what the table shows); a server the refresh has not reached is read from its rollups', async () => {
    await t.db.execute(sql`update server_uptime set pct_30d = 12.5 where server_id = ${bad}`);
    const page = await (await get(`/infrastructure/${bad}`, viewer)).text();
    expect(page).toMatch(/data-period="30d"[^>]*>12\.50%/);
    await refreshServerUptime(t.db, NOW);
    await t.db.execute(sql`delete from server_uptime where server_id = ${bad}`);
    const fresh = await (await get(`/infrastructure/${bad}`, viewer)).text();
    expect(fresh).toMatch(/data-period="30d"[^>]*>95\.00%/);
    await refreshServerUptime(t.db, NOW);
  });
});
