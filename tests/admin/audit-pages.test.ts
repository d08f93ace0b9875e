import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** /admin/audit without JavaScript: a GET filter form, the Older keyset link and the CSV link keep the filters. */

let t: TestContext;
let auditor: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin', firstName: 'Ann', lastName: 'Admin' });
  auditor = await createSignedInUser(t.db, { role: 'auditor' });
  await t.db.execute(sql`
    insert into audit_log (action, entity_type, entity_id, created_at)
    select 'page.bulk', 'page-test', 'e' || g, timestamptz '2035-01-01' + g * interval '1 minute'
    from generate_series(1, 60) g`);
  await t.db
    .insert(auditLog)
    .values({ actorId: admin.id, action: 'page.solo', entityType: 'page-solo', entityId: 'x1', createdAt: new Date() });
});
afterAll(() => t.close());

const html = async (path: string, cookie = auditor.cookie, status = 200) => {
  const res = await t.app.request(path, { headers: { Cookie: cookie } });
  expect(res.status).toBe(status);
  return res.text();
};

/** The page's links with `&amp;` read back as `&`. */
const hrefs = (page: string) => [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));

describe('/admin/audit', () => {
  it('offers the filters as a plain GET form (actor select with the accounts, dates) and a CSV link', async () => {
    const page = await html('/admin/audit');
    const form = page.match(/<form class="audit-filters"[^>]*>/)?.[0];
    expect(form).toContain('action="/admin/audit"');
    expect(form).toContain('method="get"');
    for (const name of ['actor', 'action', 'entityType', 'entityId', 'from', 'to'])
      expect(page).toContain(`name="${name}"`);
    expect(page).toContain(`<option value="${admin.id}">Ann Admin (${admin.email})</option>`);
    expect(page).toContain('type="date"');
    expect(hrefs(page)).toContain('/api/admin/audit.csv');
  });

  it('filters, keeps the values in the form, and links Older with a cursor and the same filters', async () => {
    const page = await html('/admin/audit?entityType=page-test&action=page.bulk&from=2035-01-01');
    expect(page).toContain('value="page-test"');
    expect(page).toContain('value="page.bulk"');
    expect(page).toContain('value="2035-01-01"');
    expect(page).toContain('e60');
    expect(page).not.toContain('page.solo');
    const older = hrefs(page).find((h) => h.startsWith('/admin/audit?') && h.includes('cursor='));
    expect(older).toBeDefined();
    const olderUrl = new URL(older!, 'http://x');
    expect(olderUrl.searchParams.get('entityType')).toBe('page-test');
    expect(olderUrl.searchParams.get('action')).toBe('page.bulk');
    expect(hrefs(page)).toContain('/api/admin/audit.csv?action=page.bulk&entityType=page-test&from=2035-01-01');

    const second = await html(older!);
    expect(second).toContain('e10');
    expect(second).not.toContain('>page-test e11<');
    expect(second).toContain('Newest');
    expect(hrefs(second).some((h) => h.includes('cursor='))).toBe(false); // the last page
  });

  it('shows an empty state when nothing matches', async () => {
    const page = await html('/admin/audit?action=no.such.action');
    expect(page).toContain('No event matches these filters.');
  });

  it('answers 400 with the problem in words for a bad filter or cursor, the form still there', async () => {
    const page = await html('/admin/audit?from=2035-02-30', auditor.cookie, 400);
    expect(page).toContain('from must be a date');
    expect(page).toContain('name="from"');
    expect(await html('/admin/audit?cursor=bogus', auditor.cookie, 400)).toContain('cursor is not valid');
  });

  it('is for admins and auditors only', async () => {
    await html('/admin/audit', admin.cookie);
    const editor = await createSignedInUser(t.db, { role: 'editor' });
    const viewer = await createSignedInUser(t.db, { role: 'viewer' });
    expect(await html('/admin/audit', editor.cookie, 403)).not.toContain('page.solo');
    expect(await html('/admin/audit', viewer.cookie, 403)).not.toContain('page.solo');
  });
});
