import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client';
import { documents, servers } from '../../src/db/schema';
import { prefixTsquery } from '../../src/search/query';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
const ids: Record<string, string> = {};

async function doc(key: string, values: Partial<typeof documents.$inferInsert>) {
  const [row] = await t.db
    .insert(documents)
    .values({ space: 'knowledge', title: key, content: 'nothing to see', ...values })
    .returning({ id: documents.id });
  ids[key] = row.id;
}

const get = async (path: string, cookie = user.cookie) => t.app.request(path, jsonRequest('GET', undefined, cookie));

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
  // The body hit is newer, so recency alone would put it first.
  await doc('title', {
    title: 'Zabbix agent rollout',
    content: 'Steps for the monitoring agent.',
    updatedAt: new Date(Date.now() - 86400000),
  });
  await doc('body', { title: 'Weekly notes', content: 'We talked about zabbix and the backup window.' });
  await doc('document', {
    space: 'documents',
    title: 'Firewall change procedure',
    content: 'Open a change ticket.',
    category: 'Network',
  });
  await doc('deleted', { title: 'Firewall retired rules', content: 'old', deletedAt: new Date() });
  await doc('excerpt', { title: 'Patch night', content: 'Body', excerpt: 'Quarterly kernel patching for the fleet' });
  const [web] = await t.db
    .insert(servers)
    .values({
      name: 'web-prod-01',
      ipAddress: '127.20.30.40',
      environment: 'production',
      primaryFunction: 'Customer portal',
    })
    .returning({ id: servers.id });
  ids.server = web.id;
});
afterAll(() => t.close());

describe('tsquery builder', () => {
  it('keeps only words, joins them with & and makes the last a prefix', () => {
    expect(prefixTsquery("zab:* & | ! ('x")).toBe('zab & x:*');
    expect(prefixTsquery('Kernel patch')).toBe('kernel & patch:*');
    expect(prefixTsquery('  !!! ')).toBeNull();
  });
});

describe('GET /api/search', () => {
  it('needs a signed-in user', async () => {
    expect((await t.app.request('/api/search?q=zabbix')).status).toBe(401);
  });

  it('answers [] for an empty or missing q', async () => {
    expect(await (await get('/api/search?q=')).json()).toEqual([]);
    expect(await (await get('/api/search')).json()).toEqual([]);
    expect(await (await get('/api/search?q=%20%20')).json()).toEqual([]);
  });

  it('ranks a title hit above a body hit', async () => {
    const results = await (await get('/api/search?q=zabbix')).json();
    expect(results.map((r: { id: string }) => r.id)).toEqual([ids.title, ids.body]);
  });

  it('ranks a title hit first even when the word is in more items than are ranked (300)', async () => {
    // Written first, so the index yields these body hits before the title hit written last.
    await t.db.insert(documents).values(
      Array.from({ length: 320 }, (_, i) => ({
        space: 'knowledge' as const,
        title: `Notes ${i}`,
        content: 'Restart the nagios service.',
      })),
    );
    await doc('nagiosTitle', {
      title: 'Nagios upgrade runbook',
      content: 'Steps.',
      updatedAt: new Date(Date.now() - 365 * 86400000),
    });
    await doc('nagiosLegacy', { title: 'Nagios legacy checks', content: 'Old legacy plugins.' });
    const results = await (await get('/api/search?q=nagios')).json();
    expect(
      results
        .slice(0, 2)
        .map((r: { id: string }) => r.id)
        .sort(),
    ).toEqual([ids.nagiosTitle, ids.nagiosLegacy].sort());
    expect(results).toHaveLength(8);
  });

  it('takes a title candidate only when it matches the whole query, and ranks a query with a negated word', async () => {
    const rows = await queryRows<{ id: string }>(
      t.db,
      sql`select id from ranked_documents(websearch_to_tsquery('english', 'nagios -legacy'), 1000)`,
    );
    expect(rows.map((r) => r.id)).not.toContain(ids.nagiosLegacy);
    // ts_rank scores a query with a negation 1e-20 for every item; ranked by its positive part, the title hit leads.
    expect(rows[0].id).toBe(ids.nagiosTitle);
  });

  it('matches the last word as a prefix and answers the result shape with the deep link', async () => {
    const [hit] = await (await get('/api/search?q=zabb')).json();
    expect(hit).toEqual({
      id: ids.title,
      title: 'Zabbix agent rollout',
      excerpt: 'Steps for the monitoring agent.',
      category: null,
      type: 'knowledge',
      url: `/knowledge-base/${ids.title}/zabbix-agent-rollout`,
    });
  });

  it('requires every word (AND) and finds excerpts', async () => {
    const results = await (await get('/api/search?q=kernel%20patch')).json();
    expect(results.map((r: { id: string }) => r.id)).toEqual([ids.excerpt]);
    expect(await (await get('/api/search?q=kernel%20zabbix')).json()).toEqual([]);
  });

  it('finds documents with their own deep link and leaves deleted items out', async () => {
    const results = await (await get('/api/search?q=firewall')).json();
    expect(results).toEqual([
      expect.objectContaining({
        id: ids.document,
        type: 'document',
        category: 'Network',
        url: `/documents/${ids.document}/firewall-change-procedure`,
      }),
    ]);
  });

  it('finds servers by any part of their name, IP address or function', async () => {
    const server = {
      id: ids.server,
      title: 'web-prod-01',
      type: 'server',
      category: 'production',
      url: `/infrastructure?server=${ids.server}`,
    };
    for (const q of ['web-prod', '127.20.30', '30.40', 'customer portal', 'PROD-01']) {
      const results = await (await get(`/api/search?q=${encodeURIComponent(q)}`)).json();
      expect(results, q).toContainEqual(expect.objectContaining(server));
    }
    expect(await (await get('/api/search?q=prod-01%20customer')).json()).toEqual([]);
  });

  it('puts a server whose name matches before one whose function matches', async () => {
    const [portal] = await t.db
      .insert(servers)
      .values({ name: 'app-portal-01', ipAddress: '127.20.30.41', environment: 'staging', primaryFunction: 'Intranet' })
      .returning({ id: servers.id });
    const results = await (await get('/api/search?q=portal')).json();
    expect(results.map((r: { id: string }) => r.id)).toEqual([portal.id, ids.server]);
    await t.db.delete(servers).where(eq(servers.id, portal.id));
  });

  it('treats query syntax and LIKE wildcards as plain text', async () => {
    for (const q of ["zabbix:* & !('", '%', '_', "'; drop table documents; --", '\\']) {
      const res = await get(`/api/search?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      if (q === '%' || q === '_') expect(await res.json(), q).toEqual([]);
    }
  });

  it('honours limit and validates it', async () => {
    for (let i = 0; i < 12; i++) await doc(`many-${i}`, { title: `Runbook ${i} for backups` });
    expect(await (await get('/api/search?q=backups')).json()).toHaveLength(8);
    expect(await (await get('/api/search?q=backups&limit=3')).json()).toHaveLength(3);
    const res = await get('/api/search?q=backups&limit=0');
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('limit must be between 1 and 50.');
  });
});

describe('GET /search and /search/suggest', () => {
  it('renders a results page without JavaScript', async () => {
    const res = await get('/search?q=zabbix');
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain(`href="/knowledge-base/${ids.title}/zabbix-agent-rollout"`);
    expect(html).toContain('Results for &quot;zabbix&quot;');
    expect(await (await get('/search?q=nomatchword')).text()).toContain('No documents found.');
  });

  it('sends signed-out visitors of the results page to sign in', async () => {
    const res = await t.app.request('/search?q=x');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?next=%2Fsearch%3Fq%3Dx');
  });

  it('answers the header list fragment with options, or the spec texts', async () => {
    const html = await (await get('/search/suggest?q=zabbix')).text();
    expect(html).toContain('role="option"');
    expect(html).toContain(`href="/knowledge-base/${ids.title}/zabbix-agent-rollout"`);
    expect(html).not.toContain('<html');
    expect(await (await get('/search/suggest?q=')).text()).toContain('Start typing to search...');
    expect(await (await get('/search/suggest?q=qqqzzz')).text()).toContain('No documents found.');
  });

  it('puts the combobox search box in the header of every signed-in page', async () => {
    const html = await (await get('/settings')).text();
    expect(html).toMatch(/<form[^>]*action="\/search"[^>]*method="get"/);
    expect(html).toContain('hx-get="/search/suggest"');
    expect(html).toContain('hx-trigger="input changed delay:500ms, search"');
    expect(html).toContain('role="combobox"');
  });
});
