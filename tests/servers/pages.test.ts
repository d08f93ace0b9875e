import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, healthChecks, servers, userPreferences } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
let prod: typeof servers.$inferSelect;

const page = async (path: string) => {
  const res = await t.app.request(path, { headers: { Cookie: user.cookie } });
  return { status: res.status, html: await res.text(), res };
};
const rowNames = (html: string) =>
  [...html.matchAll(/<span class="server-cell__name">([^<]+)<\/span>/g)].map((m) => m[1]);

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
});
afterAll(() => t.close());

describe('/infrastructure without JavaScript', () => {
  it('sends signed-out visitors to the login page', async () => {
    const res = await t.app.request('/infrastructure?server=x');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?next=%2Finfrastructure%3Fserver%3Dx');
  });

  it('shows the empty state before any server exists', async () => {
    const { status, html } = await page('/infrastructure');
    expect(status).toBe(200);
    expect(html).toContain('Monitor and manage your server infrastructure');
    expect(html).toContain('No servers configured');
    expect(html).toContain('Get started by adding your first server');
    expect(html).toContain('Add Your First Server');
  });

  it('renders the table on the server, filtered by the GET form parameters', async () => {
    [prod] = await t.db
      .insert(servers)
      .values({
        name: 'app-prod',
        ipAddress: '127.0.0.21',
        environment: 'production',
        status: 'online',
        uptime: 90000,
        metricsUpdatedAt: new Date(),
      })
      .returning();
    await t.db.insert(servers).values([
      {
        name: 'app-stage',
        ipAddress: '127.0.0.22',
        environment: 'staging',
        status: 'warning',
        operatingSystem: 'Debian 12',
      },
      { name: 'app-dev', ipAddress: '127.0.0.23', environment: 'development', status: 'offline' },
    ]);
    const all = await page('/infrastructure');
    expect(rowNames(all.html)).toEqual(['app-dev', 'app-prod', 'app-stage']);
    expect(all.html).toContain('Servers (<!-- -->3<!-- -->)');
    expect(all.html).toContain('1d 1h');
    expect(all.html).toContain('badge badge--red">production');
    expect(all.html).toContain('<form class="toolbar" role="search" action="/infrastructure" method="get">');

    expect(rowNames((await page('/infrastructure?environment=production')).html)).toEqual(['app-prod']);
    expect(rowNames((await page('/infrastructure?status=warning')).html)).toEqual(['app-stage']);
    expect(rowNames((await page('/infrastructure?q=debian')).html)).toEqual(['app-stage']);
    expect(rowNames((await page('/infrastructure?q=127.0.0.23')).html)).toEqual(['app-dev']);
    const none = await page('/infrastructure?q=nothing-like-this');
    expect(none.html).toContain('No servers found');
    expect(none.html).toContain('Try adjusting your search or filter criteria');
  });

  it('highlights the ?server= row; ?create=server asks the island to open the add dialog once hydrated', async () => {
    const { html } = await page(`/infrastructure?server=${prod.id}`);
    expect(html).toMatch(new RegExp(`<tr data-row-id="${prod.id}" data-highlight=""`));
    expect((html.match(/data-highlight/g) ?? []).length).toBe(1);
    // The dialog's code loads when it opens (tests/e2e/infrastructure.test.ts opens it from this link).
    const create = await page('/infrastructure?create=server');
    expect(create.html).toContain('&quot;openCreate&quot;:true');
    expect(create.html).not.toContain('Add Server</h2>');
  });

  it('draws each row’s icons from the sprite, not as inline paths', async () => {
    const { html } = await page('/infrastructure');
    const row = html.slice(html.indexOf(`<tr data-row-id="${prod.id}"`));
    const cells = row.slice(0, row.indexOf('</tr>'));
    expect(cells).toMatch(/<use href="\/static\/icons-[0-9a-f]{12}\.svg#eye"><\/use>/);
    expect(cells).not.toContain('<path');
  });
});

describe('/infrastructure?server= naming no server', () => {
  const banner = 'That server does not exist or was deleted.';

  it('says so in a banner and the address loses the ?server= (deleted, unknown or malformed id)', async () => {
    const [gone] = await t.db.insert(servers).values({ name: 'gone-soon' }).returning();
    await t.db.delete(servers).where(inArray(servers.id, [gone.id]));
    for (const id of [gone.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const { status, html } = await page(`/infrastructure?q=app&server=${id}`);
      expect(status, id).toBe(200);
      expect(html, id).toContain(`<div class="banner banner--error" role="alert">${banner}</div>`);
      expect(html, id).toContain('data-replace-url="/infrastructure?q=app"');
      expect(html, id).not.toContain('data-highlight');
    }
    // A server that is there is highlighted, without a banner; so is a plain visit.
    expect((await page(`/infrastructure?server=${prod.id}`)).html).not.toContain(banner);
    expect((await page('/infrastructure')).html).not.toContain(banner);
  });
});

describe('/infrastructure in natural name order', () => {
  it('lists web-2 before web-10, ignoring case, on the page and in the API list (whole and filtered)', async () => {
    const added = await t.db
      .insert(servers)
      .values(['nat-web-10', 'Nat-Web-2', 'nat-web-1', 'NAT-WEB-03'].map((name) => ({ name })))
      .returning();
    const expected = ['nat-web-1', 'Nat-Web-2', 'NAT-WEB-03', 'nat-web-10'];
    expect(rowNames((await page('/infrastructure?q=nat-web')).html)).toEqual(expected);
    const list = async (path: string) =>
      ((await (await t.app.request(path, { headers: { Cookie: user.cookie } })).json()) as { name: string }[])
        .map((s) => s.name)
        .filter((n) => /^nat-web/i.test(n));
    expect(await list('/api/servers')).toEqual(expected);
    expect(await list('/api/servers?q=nat-web')).toEqual(expected);
    await t.db.delete(servers).where(
      inArray(
        servers.id,
        added.map((r) => r.id),
      ),
    );
  });
});

describe('/infrastructure pages of 50 rows', () => {
  it('pages with plain links, and opens the page holding a ?server= row', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({
      name: `pg-${String(i).padStart(2, '0')}`,
      ipAddress: `127.0.1.${i + 1}`,
    }));
    const inserted = await t.db.insert(servers).values(rows).returning();
    const first = await page('/infrastructure?q=pg-');
    expect(rowNames(first.html)).toHaveLength(50);
    // The island's props carry the page shown, not the whole inventory.
    const props = JSON.parse(
      /data-props="([^"]*)"/.exec(first.html)![1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'),
    );
    expect(props.pageRows).toHaveLength(50);
    expect(props).toMatchObject({ total: 60, pageIndex: 0 });
    expect(first.html).toContain('Showing 1–50 of 60');
    expect(first.html).toContain('href="/infrastructure?q=pg-&amp;page=2"');
    const second = await page('/infrastructure?q=pg-&page=2');
    expect(rowNames(second.html)).toEqual(rows.slice(50).map((r) => r.name));
    const target = inserted.find((r) => r.name === 'pg-55')!;
    const linked = await page(`/infrastructure?q=pg-&server=${target.id}`);
    expect(linked.html).toContain('Page 2 of 2');
    expect(linked.html).toMatch(new RegExp(`<tr data-row-id="${target.id}" data-highlight=""`));
    await t.db.delete(servers).where(
      inArray(
        servers.id,
        inserted.map((r) => r.id),
      ),
    );
  });
});

describe('/infrastructure/{id}', () => {
  it('shows every field, the health history and linked documents', async () => {
    await t.db.insert(healthChecks).values([
      { serverId: prod.id, status: 'online', latencyMs: 3, checkedAt: new Date(Date.now() - 60_000) },
      {
        serverId: prod.id,
        status: 'offline',
        latencyMs: null,
        error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.21:22',
      },
    ]);
    const { status, html } = await page(`/infrastructure/${prod.id}`);
    expect(status).toBe(200);
    expect(html).toContain('127.0.0.21');
    expect(html).toContain('1d 1h');
    expect(html).toContain('<svg class="server-sparkline"');
    expect(html).toContain('ECONNREFUSED');
    expect(html).toContain('No documents linked yet.');
    expect((await page('/infrastructure/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await page('/infrastructure/nope')).status).toBe(404);
  });

  it('lists its runbooks, finds a document by title and links and unlinks it with plain forms', async () => {
    const [doc, other, restricted] = await t.db
      .insert(documents)
      .values([
        { space: 'knowledge', title: 'DB failover runbook', content: 'steps', templateType: 'work_instruction' },
        { space: 'documents', title: 'Failover contacts', content: 'x' },
        { space: 'knowledge', title: 'Failover secrets', content: 'x', visibility: 'restricted' },
      ])
      .returning();
    const form = (body: Record<string, string>) => ({
      method: 'POST',
      headers: {
        Cookie: user.cookie,
        Origin: 'http://localhost:3000',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(body).toString(),
    });
    const detail = (await page(`/infrastructure/${prod.id}`)).html;
    expect(detail).toContain('Runbooks</h2>');
    expect(detail).toContain(`href="/knowledge-base/new?type=work-instruction&amp;server=${prod.id}"`);
    expect(detail).toContain(`href="/knowledge-base/new?type=build-document&amp;server=${prod.id}"`);
    expect(detail).toContain(`action="/infrastructure/${prod.id}#link-document" method="get"`);
    // Nothing listed before a search.
    expect(detail).not.toContain('aria-label="Link DB failover runbook"');

    // The title search lists the matching documents the user may read (not the restricted one), each with Link.
    const found = (await page(`/infrastructure/${prod.id}?q=failover`)).html;
    expect(found).toContain('value="failover"');
    expect(found).toContain('aria-label="Link DB failover runbook"');
    expect(found).toContain('aria-label="Link Failover contacts"');
    expect(found).not.toContain('Failover secrets');
    expect(found).toContain(`<input type="hidden" name="documentId" value="${doc.id}"/>`);
    expect((await page(`/infrastructure/${prod.id}?q=zzz-nothing`)).html).toContain(
      'No unlinked document you may read has “zzz-nothing” in its title.',
    );

    const bad = await t.app.request(`/infrastructure/${prod.id}/documents`, form({ documentId: '' }));
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Choose a document to link.');
    const hidden = await t.app.request(`/infrastructure/${prod.id}/documents`, form({ documentId: restricted.id }));
    expect(hidden.status).toBe(422);
    expect(await hidden.text()).toContain('Document not found.');
    for (const d of [doc, other]) {
      const ok = await t.app.request(`/infrastructure/${prod.id}/documents`, form({ documentId: d.id }));
      expect(ok.status).toBe(303);
      expect(ok.headers.get('location')).toBe(`/infrastructure/${prod.id}`);
    }
    const { html } = await page(`/infrastructure/${prod.id}`);
    expect(html).toContain(`href="/knowledge-base/${doc.id}/db-failover-runbook"`);
    expect(html).toContain(`href="/documents/${other.id}/failover-contacts"`);
    // Each row says its type, taken from the item.
    expect(html).toMatch(/DB failover runbook<\/a><span class="badge[^"]*">Work Instruction<\/span>/);
    expect(html).toMatch(/Failover contacts<\/a><span class="badge[^"]*">Document<\/span>/);
    expect(html).toContain('aria-label="Unlink DB failover runbook"');
    // A linked document is no longer offered.
    expect((await page(`/infrastructure/${prod.id}?q=failover`)).html).not.toContain('aria-label="Link Failover');
    // The table's "2 runbooks" (the island rendered on the server) links to the page's Runbooks card, which has that id.
    expect((await page('/infrastructure')).html).toContain(
      `<a class="muted small" href="/infrastructure/${prod.id}#runbooks">2 runbooks</a>`,
    );
    expect(html).toMatch(
      /<section id="runbooks" class="card">\s*<header class="card__header"><div><h2 class="card__title">Runbooks<\/h2>/,
    );
    for (const d of [doc, other]) {
      const un = await t.app.request(`/infrastructure/${prod.id}/documents/${d.id}/delete`, form({}));
      expect(un.status).toBe(303);
    }
    const res = await t.app.request(`/api/servers/${prod.id}/documents`, jsonRequest('GET', undefined, user.cookie));
    expect(await res.json()).toEqual([]);
    expect((await page(`/infrastructure/${prod.id}`)).html).toContain('No documents linked yet.');
  });
});

describe("/infrastructure in the user's timezone", () => {
  it('renders the uptime fallback (last check) in the saved timezone and hands it to the island', async () => {
    const sydney = await createSignedInUser(t.db);
    await t.db.insert(userPreferences).values({ userId: sydney.id, timezone: 'Australia/Sydney' });
    // 14:15 UTC on 20 Nov is 1:15 am on 21 Nov in Sydney (AEDT, UTC+11).
    await t.db
      .insert(servers)
      .values({ name: 'tz-checked', uptime: 0, lastHealthCheck: new Date('2026-11-20T14:15:00Z') });
    const res = await t.app.request('/infrastructure?q=tz-checked', { headers: { Cookie: sydney.cookie } });
    const html = await res.text();
    expect(html).toContain('21 Nov 2026, 1:15 am');
    expect(html).not.toContain('20 Nov 2026, 2:15 pm');
    const props = JSON.parse(/data-props="([^"]*)"/.exec(html)![1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    expect(props.timeZone).toBe('Australia/Sydney');
  });
});
