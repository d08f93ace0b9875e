import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { aiInteractions, documents, servers, users } from '../../src/db/schema';
import { uptimeFigures } from '../../src/dashboard/views/StatCards';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.request(path, { headers: { Cookie: user.cookie, ...headers } });

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db, { firstName: 'Dana', lastName: 'Scully' });
});
afterAll(() => t.close());

describe('empty dashboard', () => {
  it('shows the spec title, subtitle, labels and empty texts', async () => {
    const html = await (await get('/')).text();
    for (const text of [
      'Dashboard',
      'Overview of your infrastructure and knowledge base',
      'Total Servers',
      'Documents',
      'Uptime',
      'AI Suggestions',
      'Recent Knowledge Base',
      'No recent knowledge base articles found',
      'Infrastructure Overview',
      'No servers configured',
      'Quick Actions',
    ]) {
      expect(html, text).toContain(text);
    }
    expect(html).toContain('+0 this month');
    expect(html).toContain('+0 this week');
    expect(html).toContain('+0 today');
  });

  it('says "No servers found for this environment" when an environment is chosen and there are no servers', async () => {
    const page = await (await get('/?environment=production')).text();
    const fragment = await (
      await get('/?environment=staging', { 'HX-Request': 'true', 'HX-Target': 'infra-overview' })
    ).text();
    for (const html of [page, fragment]) {
      const overview = html.slice(html.indexOf('id="infra-overview"'));
      expect(overview).toContain('No servers found for this environment');
      expect(overview).not.toContain('No servers configured');
    }
  });

  it('ships no React: nothing preloaded, only the lazily opened assistant island', async () => {
    const html = await (await get('/')).text();
    expect(html).not.toContain('modulepreload');
    expect(html.match(/<app-island /g) ?? []).toHaveLength(html.includes('data-load="interaction"') ? 1 : 0);
  });

  it('links the quick actions to the spec deep links', async () => {
    const html = await (await get('/')).text();
    for (const href of [
      '/knowledge-base?create=knowledge-base',
      '/knowledge-base?create=how-to-guide',
      '/knowledge-base?autocreate=true',
      '/knowledge-base?create=build-document',
      '/infrastructure?create=server',
      '/knowledge-base',
    ]) {
      expect(html, href).toContain(`href="${href}"`);
    }
  });

  it('still shows the landing page to signed-out visitors', async () => {
    const html = await (await t.app.request('/')).text();
    expect(html).not.toContain('Infrastructure Overview');
  });
});

describe('Uptime card', () => {
  const fleet = (counts: Partial<Record<'online' | 'warning' | 'offline' | 'maintenance' | 'unknown', number>>) => {
    const { online = 0, warning = 0, offline = 0, maintenance = 0, unknown = 0 } = counts;
    return {
      total: online + warning + offline + maintenance + unknown,
      thisMonth: 0,
      online,
      warning,
      offline,
      maintenance,
    };
  };

  it('says so when there are no servers, or none was checked yet', () => {
    expect(uptimeFigures(fleet({}))).toEqual({ value: 'N/A', sub: 'No servers configured' });
    expect(uptimeFigures(fleet({ unknown: 4 }))).toEqual({ value: 'N/A', sub: 'No health checks yet' });
    expect(uptimeFigures(fleet({ unknown: 2, maintenance: 1 }))).toEqual({ value: 'N/A', sub: 'No health checks yet' });
  });

  it('is 100% and "All systems operational" when every checked server is up', () => {
    expect(uptimeFigures(fleet({ online: 5, unknown: 3 }))).toEqual({ value: '100%', sub: 'All systems operational' });
  });

  it('counts warning servers as up but names them, and names the offline ones', () => {
    expect(uptimeFigures(fleet({ online: 3, warning: 1 }))).toEqual({ value: '100%', sub: '1 warning' });
    expect(uptimeFigures(fleet({ online: 2, warning: 1, offline: 1 }))).toEqual({
      value: '75%',
      sub: '1 offline, 1 warning',
    });
    expect(uptimeFigures(fleet({ offline: 3 }))).toEqual({ value: '0%', sub: '3 offline' });
    // Never rounded to 100% while one is down.
    expect(uptimeFigures(fleet({ online: 1999, offline: 1 })).value).toBe('99.9%');
  });

  it('leaves servers in maintenance (not checked) out of the share', () => {
    expect(uptimeFigures(fleet({ online: 3, offline: 1, maintenance: 4 }))).toEqual({ value: '75%', sub: '1 offline' });
    expect(uptimeFigures(fleet({ online: 2, maintenance: 2 }))).toEqual({
      value: '100%',
      sub: 'All systems operational',
    });
  });
});

describe('with data', () => {
  let listener: Server;
  let port: number;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    listener = createServer((s) => s.end());
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    port = (listener.address() as { port: number }).port;
    const author = (await t.db.select().from(users).where(eq(users.id, user.id)))[0];
    const lastMonth = new Date(Date.now() - 40 * 86400000);
    const rows = await t.db
      .insert(servers)
      .values([
        {
          name: 'web-01',
          ipAddress: '127.0.0.1',
          monitorPort: port,
          environment: 'production',
          status: 'online',
          cpuUsage: 42.4,
          memoryUsage: 61,
          uptime: 3 * 86400 + 5 * 3600,
          metricsUpdatedAt: new Date(),
        },
        {
          name: 'pg-db-01',
          ipAddress: '127.0.0.1',
          monitorPort: port,
          environment: 'staging',
          status: 'online',
          createdAt: lastMonth,
        },
        {
          name: 'dev-box',
          ipAddress: '127.0.0.2',
          monitorPort: 1,
          environment: 'development',
          status: 'offline',
          createdAt: lastMonth,
        },
      ])
      .returning({ id: servers.id, name: servers.name });
    for (const r of rows) ids[r.name] = r.id;
    const day = 86400000;
    const docs = await t.db
      .insert(documents)
      .values([
        {
          space: 'knowledge',
          title: 'Template item',
          content: 'x',
          isTemplate: true,
          isPublished: true,
          authorId: author.id,
          updatedAt: new Date(Date.now() - 3 * day),
        },
        {
          space: 'knowledge',
          title: 'Published item',
          content: 'x',
          isPublished: true,
          authorId: author.id,
          updatedAt: new Date(Date.now() - 2 * day),
        },
        {
          space: 'knowledge',
          title: 'Draft item',
          content: 'x',
          authorId: null,
          updatedAt: new Date(Date.now() - 1 * day),
        },
        {
          space: 'knowledge',
          title: 'Old 1',
          content: 'x',
          updatedAt: new Date(Date.now() - 10 * day),
          createdAt: new Date(Date.now() - 30 * day),
        },
        {
          space: 'knowledge',
          title: 'Old 2',
          content: 'x',
          updatedAt: new Date(Date.now() - 11 * day),
          createdAt: new Date(Date.now() - 30 * day),
        },
        {
          space: 'knowledge',
          title: 'Oldest',
          content: 'x',
          updatedAt: new Date(Date.now() - 12 * day),
          createdAt: new Date(Date.now() - 30 * day),
        },
        { space: 'knowledge', title: 'Deleted item', content: 'x', deletedAt: new Date() },
        { space: 'documents', title: 'A document', content: 'x', createdAt: new Date(Date.now() - 30 * day) },
      ])
      .returning({ id: documents.id, title: documents.title });
    for (const d of docs) ids[d.title] = d.id;
    await t.db.insert(aiInteractions).values([
      { userId: user.id, query: 'q', response: 'r' },
      { userId: user.id, query: 'q', response: 'r', createdAt: new Date(Date.now() - 3 * day) },
    ]);
  });
  afterAll(() => new Promise<void>((r) => listener.close(() => r())));

  it('GET /api/analytics/stats answers the server and live document totals', async () => {
    expect((await t.app.request('/api/analytics/stats')).status).toBe(401);
    const res = await t.app.request('/api/analytics/stats', jsonRequest('GET', undefined, user.cookie));
    expect(await res.json()).toEqual({ servers: { total: 3 }, documents: { total: 7 } });
  });

  it('shows real figures in the stat cards', async () => {
    const html = await (await get('/')).text();
    expect(html).toMatch(
      /Total Servers<\/span><span class="stat-card__value">3<\/span><span class="stat-card__sub">\+1 this month/,
    );
    expect(html).toMatch(
      /Documents<\/span><span class="stat-card__value">7<\/span><span class="stat-card__sub">\+3 this week/,
    );
    expect(html).toMatch(
      /Uptime<\/span><span class="stat-card__value">66.7%<\/span><span class="stat-card__sub">1 offline/,
    );
    expect(html).toMatch(
      /AI Suggestions<\/span><span class="stat-card__value">2<\/span><span class="stat-card__sub">\+1 today/,
    );
  });

  it('lists the 5 newest live knowledge items with author, age, badge and a link to the page of each item', async () => {
    const html = await (await get('/')).text();
    const recent = html.slice(html.indexOf('Recent Knowledge Base'), html.indexOf('Quick Actions'));
    expect(recent.match(/class="dash-recent__row"/g)).toHaveLength(5);
    expect(recent).not.toContain('Oldest');
    expect(recent).not.toContain('Deleted item');
    expect(recent).toContain(`href="/knowledge-base/${ids['Draft item']}/draft-item"`);
    expect(recent.indexOf('Draft item')).toBeLessThan(recent.indexOf('Published item'));
    expect(recent).toMatch(/Template item.*Dana Scully · 3 days ago.*>Template</s);
    expect(recent).toMatch(/Published item.*2 days ago.*>Published</s);
    expect(recent).toMatch(/Draft item.*yesterday.*>Draft</s);
  });

  it('renders the server table with colours, measured usage and uptime, "—" where never measured, and the database icon', async () => {
    const html = await (await get('/')).text();
    const infra = html.slice(html.indexOf('id="infra-overview"'));
    for (const col of ['Server', 'Status', 'Environment', 'CPU', 'Memory', 'Uptime', 'Actions'])
      expect(infra).toContain(`<th>${col}</th>`);
    expect(infra).toContain('badge badge--green">Online');
    expect(infra).toContain('badge badge--red">Offline');
    expect(infra).toContain('badge badge--red badge--outline">Production');
    expect(infra).toContain('<td>42%</td><td>61%</td><td>3d 5h</td>');
    // Servers whose agent never pushed metrics: nothing was measured, so nothing is shown as 0%.
    expect(infra).toContain('<td>—</td><td>—</td><td>—</td>');
    expect(infra).not.toContain('<td>0%</td>');
    expect(infra.match(/aria-label="Database server"/g)).toHaveLength(1);
    expect(infra).toContain(`href="/infrastructure/${ids['web-01']}"`);
    expect(infra).toContain(`href="/infrastructure?server=${ids['web-01']}"`);
  });

  it('offers view, edit and settings links with accessible names in the Actions column', async () => {
    const html = await (await get('/')).text();
    const row = html.slice(html.indexOf('web-01</span>'), html.indexOf('</tr>', html.indexOf('web-01</span>')));
    expect(row).toContain(`href="/infrastructure/${ids['web-01']}" aria-label="View web-01"`);
    expect(row).toContain(`href="/infrastructure?server=${ids['web-01']}" aria-label="Edit web-01"`);
    expect(row).toContain(`href="/infrastructure/${ids['web-01']}" aria-label="Settings for web-01"`);
    expect(row).toMatch(/<use href="[^"]*#settings"/);
  });

  it('filters by environment: the full page keeps it in the URL, htmx gets the fragment', async () => {
    const page = await (await get('/?environment=staging')).text();
    expect(page).toContain('pg-db-01');
    expect(page).not.toContain('web-01');
    expect(page).toMatch(/<option value="staging" selected="">Staging<\/option>/);
    const fragment = await (
      await get('/?environment=production', { 'HX-Request': 'true', 'HX-Target': 'infra-overview' })
    ).text();
    expect(fragment.startsWith('<div id="infra-overview"')).toBe(true);
    expect(fragment).toContain('web-01');
    expect(fragment).not.toContain('dev-box');
    expect(fragment).not.toContain('<html');
    const bogus = await (await get('/?environment=<script>')).text();
    expect(bogus).toContain('dev-box');
  });

  it('says "No servers found for this environment" when a filter matches none', async () => {
    await t.db.delete(servers).where(eq(servers.environment, 'staging'));
    const fragment = await (
      await get('/?environment=staging', { 'HX-Request': 'true', 'HX-Target': 'infra-overview' })
    ).text();
    expect(fragment).toContain('No servers found for this environment');
  });

  it('Run Health Check probes every server for real and answers the table, stats and a toast', async () => {
    const res = await t.app.request('/dashboard/health-check', {
      method: 'POST',
      headers: {
        Cookie: user.cookie,
        Origin: 'http://localhost:3000',
        'HX-Request': 'true',
        'HX-Current-URL': 'http://localhost:3000/?environment=all',
      },
    });
    expect(res.status).toBe(200);
    const trigger = JSON.parse(res.headers.get('HX-Trigger')!);
    expect(trigger.showToast).toMatchObject({
      title: 'Health Check Complete',
      text: 'Checked 2 servers: 1 online, 0 warning, 1 offline.',
    });
    const html = await res.text();
    expect(html).toContain('id="infra-overview"');
    expect(html).toContain('hx-swap-oob="true"');
    const [web] = await t.db.select().from(servers).where(eq(servers.id, ids['web-01']));
    expect(web.lastHealthCheck).not.toBeNull();
  });

  it('Run Health Check without JavaScript redirects to the dashboard with the result', async () => {
    const res = await t.app.request('/dashboard/health-check', {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: 'http://localhost:3000' },
    });
    expect(res.status).toBe(303);
    const html = await (await get(res.headers.get('location')!)).text();
    expect(html).toContain('Health check complete. Checked 2 servers: 1 online, 0 warning, 1 offline.');
  });

  it('refuses the health check to signed-out visitors', async () => {
    const res = await t.app.request('/dashboard/health-check', {
      method: 'POST',
      headers: { Origin: 'http://localhost:3000' },
    });
    expect(res.status).toBe(302);
    expect(await t.db.select().from(servers).where(eq(servers.id, ids['dev-box']))).toHaveLength(1);
  });
});
