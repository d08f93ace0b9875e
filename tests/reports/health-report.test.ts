import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import {
  healthChecks,
  jobRuns,
  mailOutbox,
  serverDocuments,
  servers,
  userPreferences,
  users,
} from '../../src/db/schema';
import { createItem, deleteItem } from '../../src/knowledge/service';
import { buildHealthReport } from '../../src/reports/service';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { testScheduler } from '../jobs/support';

const MIN = 60_000;
// One clock for the whole seed: two events "10 minutes ago" are the same instant, whatever the machine's speed.
const NOW = Date.now();
const ago = (ms: number) => new Date(NOW - ms);

let t: TestContext;
let admin: TestUser;
let optedIn: TestUser;
let optedOut: TestUser;
const ids: Record<string, string> = {};

async function seedFleet() {
  const db = t.db;
  const rows = await db
    .insert(servers)
    .values([
      {
        name: 'prod-web-01',
        environment: 'production',
        status: 'online',
        cpuUsage: 20,
        metricsUpdatedAt: ago(5 * MIN),
      },
      {
        name: 'prod-db-01',
        environment: 'production',
        status: 'offline',
        statusChangedAt: ago(180 * MIN),
        metricsUpdatedAt: ago(200 * MIN),
      },
      {
        name: 'prod-cache-01',
        environment: 'production',
        status: 'offline',
        statusChangedAt: ago(10 * MIN),
        metricsUpdatedAt: ago(15 * MIN),
      },
      {
        name: 'stage-app-01',
        environment: 'staging',
        status: 'warning',
        diskUsage: 95,
        memoryUsage: 40,
        metricsUpdatedAt: ago(2 * MIN),
      },
      { name: 'r&d-stale', environment: 'staging', status: 'online', metricsUpdatedAt: ago(120 * MIN) },
      { name: 'dev-new-01', environment: 'development', status: 'online', metricsUpdatedAt: null },
      { name: 'dev-maint-01', environment: 'development', status: 'maintenance', cpuUsage: 99 },
      { name: 'dev-unknown-01', environment: 'development', status: 'unknown' },
    ])
    .returning({ id: servers.id, name: servers.name });
  for (const r of rows) ids[r.name] = r.id;
  // The previous report went out two hours ago.
  await db.insert(jobRuns).values({
    job: 'health-report',
    startedAt: ago(120 * MIN),
    finishedAt: ago(119 * MIN),
    result: 'ok',
    durationMs: 40,
  });
  await db
    .insert(jobRuns)
    .values({ job: 'health-report', startedAt: ago(60 * MIN), result: 'error', message: 'failed run does not count' });
  await db.insert(healthChecks).values([
    { serverId: ids['prod-db-01'], checkedAt: ago(180 * MIN), previousStatus: 'online', status: 'offline' }, // before the last report
    { serverId: ids['prod-cache-01'], checkedAt: ago(10 * MIN), previousStatus: 'online', status: 'offline' },
    { serverId: ids['stage-app-01'], checkedAt: ago(30 * MIN), previousStatus: 'online', status: 'warning' },
    { serverId: ids['stage-app-01'], checkedAt: ago(20 * MIN), previousStatus: 'warning', status: 'online' },
    { serverId: ids['stage-app-01'], checkedAt: ago(10 * MIN), previousStatus: 'online', status: 'warning' },
    { serverId: ids['prod-web-01'], checkedAt: ago(5 * MIN), previousStatus: 'online', status: 'online' }, // no change
  ]);
}

/** prod-db-01 (offline for hours) has a runbook and a document, and a deleted runbook that must not show. */
const runbooks: Record<string, string> = {};
async function linkRunbooks(authorId: string) {
  const failover = await createItem(
    t.db,
    'knowledge',
    { title: 'DB failover', content: 'Promote the replica.' },
    authorId,
  );
  const contacts = await createItem(t.db, 'documents', { title: 'DB vendor contacts', content: 'Call.' }, authorId);
  const old = await createItem(t.db, 'knowledge', { title: 'Retired DB runbook', content: 'x' }, authorId);
  await deleteItem(t.db, 'knowledge', old.id, authorId);
  for (const doc of [failover, contacts, old])
    await t.db.insert(serverDocuments).values({ serverId: ids['prod-db-01'], documentId: doc.id });
  runbooks.failover = failover.id;
  runbooks.contacts = contacts.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin', email: 'admin@example.com', firstName: 'Ada' });
  optedIn = await createSignedInUser(t.db, { email: 'opted-in@example.com' });
  optedOut = await createSignedInUser(t.db, { email: 'opted-out@example.com' });
  await t.db.insert(userPreferences).values([
    { userId: optedIn.id, healthReports: true, timezone: 'UTC' },
    { userId: optedOut.id, healthReports: false },
  ]);
  await t.db
    .insert(users)
    .values({ email: 'pending-admin@example.com', role: 'admin', accountStatus: 'pending_approval' });
  await seedFleet();
  await linkRunbooks(admin.id);
});
afterAll(() => t.close());

describe('health report content', () => {
  it('summarises a seeded fleet', async () => {
    const r = await buildHealthReport(t.db, { id: admin.id, role: 'admin' });
    expect(r.total).toBe(8);
    expect(r.byStatus).toEqual({ online: 3, warning: 1, offline: 2, maintenance: 1, unknown: 1 });
    expect(r.byEnvironment).toEqual([
      {
        environment: 'production',
        total: 3,
        byStatus: { online: 1, warning: 0, offline: 2, maintenance: 0, unknown: 0 },
      },
      { environment: 'staging', total: 2, byStatus: { online: 1, warning: 1, offline: 0, maintenance: 0, unknown: 0 } },
      {
        environment: 'development',
        total: 3,
        byStatus: { online: 1, warning: 0, offline: 0, maintenance: 1, unknown: 1 },
      },
    ]);
    expect(Math.abs(r.since.getTime() - ago(120 * MIN).getTime())).toBeLessThan(MIN);
    expect(r.changed.map((c) => [c.name, c.from, c.status, c.changes])).toEqual([
      ['prod-cache-01', 'online', 'offline', 1],
      ['stage-app-01', 'online', 'warning', 3],
    ]);
    expect(r.offlineLong.map((s) => s.name)).toEqual(['prod-db-01']);
    expect(r.highUsage.map((s) => [s.name, s.disk])).toEqual([['stage-app-01', 95]]);
    expect(r.staleMetrics.map((s) => s.name)).toEqual(['dev-new-01', 'r&d-stale']);
  });

  it('is readable at /reports/health by any signed-in user, and sends signed-out visitors to sign in', async () => {
    const out = await t.app.request('/reports/health');
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/login?next=%2Freports%2Fhealth');

    const res = await t.app.request('/reports/health', { headers: { Cookie: optedOut.cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const section = (id: string) => {
      const start = html.indexOf(`id="report-${id}"`);
      expect(start).toBeGreaterThan(-1);
      return html.slice(start, html.indexOf('</section>', start));
    };
    expect(html).toContain('<title>Health report');
    expect(section('changed')).toContain('prod-cache-01');
    expect(section('changed')).not.toContain('prod-db-01');
    expect(section('offline-long')).toContain('prod-db-01');
    expect(section('offline-long')).not.toContain('prod-cache-01');
    // Every server that is down (the longest outage first) names its runbooks, each linking to the item's own page.
    expect(section('down')).toMatch(/prod-db-01.*prod-cache-01/s);
    expect(section('down')).toContain(`<a href="/infrastructure/${ids['prod-db-01']}">prod-db-01</a>`);
    expect(section('down')).toContain(`<a href="/knowledge-base/${runbooks.failover}/db-failover">DB failover</a>`);
    expect(section('down')).toContain(`<a href="/documents/${runbooks.contacts}/db-vendor-contacts">`);
    expect(section('down')).not.toContain('Retired DB runbook');
    // A down server without a runbook the reader may read offers to write one, linked to it on save.
    expect(section('down')).toMatch(
      new RegExp(
        `prod-cache-01.*<a href="/knowledge-base/new\\?type=work-instruction&amp;server=${ids['prod-cache-01']}">Write a runbook</a>`,
        's',
      ),
    );
    expect(section('changed')).toMatch(/prod-cache-01.*None/s);
    expect(section('high-usage')).toContain('95%');
    expect(section('high-usage')).not.toContain('dev-maint-01');
    expect(section('stale-metrics')).toContain('r&amp;d-stale');
    expect(section('stale-metrics')).toContain('Never');
    expect(section('by-environment')).toMatch(/Production.*?<td>3<\/td>/s);
  });
});

describe('health-report job', () => {
  it('queues one e-mail per admin and opted-in user per day, plain text and an HTML table', async () => {
    const scheduler = testScheduler(t.database);
    expect(await scheduler.runNow('health-report')).toMatchObject({
      status: 'ok',
      message: 'Queued the health report (8 servers) for 2 recipients.',
    });
    expect(await scheduler.runNow('health-report')).toMatchObject({ status: 'ok' });

    const queued = await t.db.select().from(mailOutbox).orderBy(mailOutbox.to);
    expect(queued.map((m) => m.to)).toEqual(['admin@example.com', 'opted-in@example.com']);
    const day = new Date().toISOString().slice(0, 10);
    expect(queued[0].dedupeKey).toBe(`health-report:${admin.id}:${day}`);
    const m = queued[0];
    if (process.env.SHOW_MAIL) console.log(m.text, m.html);
    expect(m.subject).toBe(
      'Ops Hub health report: 8 servers: 3 online, 1 warning, 2 offline, 1 maintenance, 1 unknown',
    );
    expect(m.text).toContain('Hello Ada,');
    expect(m.text).toMatch(
      /Changed state since the last report\nServer +Environment +From +Now +Changes +Last change +Runbooks\n[- ]+\nprod-cache-01 +production +online +offline +1 /,
    );
    expect(m.text).toContain('Offline for more than an hour');
    expect(m.text).toMatch(/stage-app-01 +staging +\d+% +40% +95%/);
    expect(m.text).toMatch(/r&d-stale +staging +online/);
    expect(m.text).toContain('Full report: http://localhost:3000/reports/health');
    expect(m.html).toContain('<table');
    expect(m.html).toContain('r&amp;d-stale');
    expect(m.html).not.toContain('r&d-stale');
    expect(m.html).toContain('href="http://localhost:3000/reports/health"');
    // The runbooks of a server that is down link to their pages, absolute in both parts.
    const failover = `http://localhost:3000/knowledge-base/${runbooks.failover}/db-failover`;
    expect(m.html).toContain(`<a href="${failover}">DB failover</a>`);
    expect(m.text).toMatch(
      /Servers down and their runbooks\nServer +Environment +Team +Offline since +Runbooks\n[- ]+\nprod-db-01 +production +— +.+ +DB failover, DB vendor contacts\n/,
    );
    expect(m.text).toContain(`  DB failover: ${failover}`);
    expect(m.text).not.toContain('Retired DB runbook');

    // The next report counts changes from this run on.
    expect((await buildHealthReport(t.db, { id: admin.id, role: 'admin' })).changed).toEqual([]);
    const [{ n }] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from job_runs where job = 'health-report' and result = 'ok'`,
    );
    expect(n).toBe(3);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'opted-out@example.com'))).toEqual([]);
  });
});
