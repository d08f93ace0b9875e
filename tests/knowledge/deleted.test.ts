import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, documentVersions } from '../../src/db/schema';
import { createItem, deleteItem, getItem } from '../../src/knowledge/service';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let admin: TestUser;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin', firstName: 'Ada', lastName: 'Admin' });
  user = await createSignedInUser(t.db);
});
afterAll(() => t.close());

const get = (path: string, who: TestUser) => t.app.request(path, { headers: { Cookie: who.cookie } });
const post = (path: string, who: TestUser) =>
  t.app.request(path, {
    method: 'POST',
    headers: { Cookie: who.cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: '',
  });

describe('Deleted items (admins)', () => {
  it('is for admins only: others get 403, signed-out visitors sign in first', async () => {
    expect((await get('/knowledge-base/deleted', user)).status).toBe(403);
    expect((await get('/documents/deleted', user)).status).toBe(403);
    const item = await createItem(t.db, 'knowledge', { title: 'Not yours to restore', content: 'x' }, user.id);
    await deleteItem(t.db, 'knowledge', item.id, user.id);
    expect((await post(`/knowledge-base/${item.id}/undelete`, user)).status).toBe(403);
    expect(await getItem(t.db, 'knowledge', item.id)).toBeNull();
    const anonymous = await t.app.request('/knowledge-base/deleted');
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/login?next=%2Fknowledge-base%2Fdeleted');
  });

  it('links from the list screens for admins only', async () => {
    expect(await (await get('/knowledge-base', admin)).text()).toContain('href="/knowledge-base/deleted"');
    expect(await (await get('/documents', admin)).text()).toContain('href="/documents/deleted"');
    expect(await (await get('/knowledge-base', user)).text()).not.toContain('/knowledge-base/deleted');
  });

  it('shows an empty state when nothing was deleted', async () => {
    const page = await (await get('/documents/deleted', admin)).text();
    expect(page).toContain('No deleted items');
  });

  it('lists deleted items newest first with who deleted them, and restores one as a new version', async () => {
    const first = await createItem(
      t.db,
      'knowledge',
      { title: 'Old DNS runbook', content: 'v1', category: 'DNS' },
      user.id,
    );
    const second = await createItem(t.db, 'knowledge', { title: 'Citrix notes', content: 'v1' }, user.id);
    await deleteItem(t.db, 'knowledge', first.id, admin.id);
    await deleteItem(t.db, 'knowledge', second.id, user.id);
    const page = await (await get('/knowledge-base/deleted', admin)).text();
    expect(page.indexOf('Citrix notes')).toBeGreaterThan(0);
    expect(page.indexOf('Citrix notes')).toBeLessThan(page.indexOf('Old DNS runbook'));
    expect(page).toContain('Ada Admin');
    expect(page).toContain(`action="/knowledge-base/${first.id}/undelete"`);

    const res = await post(`/knowledge-base/${first.id}/undelete`, admin);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/knowledge-base/deleted?restored=${first.id}`);
    const back = await getItem(t.db, 'knowledge', first.id);
    expect(back).toMatchObject({ title: 'Old DNS runbook', content: 'v1', category: 'DNS', version: 2 });
    const versions = await t.db.select().from(documentVersions).where(eq(documentVersions.documentId, first.id));
    expect(versions.map((v) => v.changeLog).sort()).toEqual(['Created', 'Restored from version 1'].sort());
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, first.id), eq(auditLog.action, 'knowledge.undelete')));
    expect(audit).toHaveLength(1);

    const after = await (await get(res.headers.get('location')!, admin)).text();
    expect(after).toContain('“Old DNS runbook” was restored.');
    expect(after).toContain(`href="/knowledge-base/${first.id}/old-dns-runbook"`);
    expect(after).not.toContain(`action="/knowledge-base/${first.id}/undelete"`);
  });

  it('answers 404 for an item that is not deleted, of the other space, or no uuid at all', async () => {
    const live = await createItem(t.db, 'documents', { title: 'Live doc', content: 'x' }, user.id);
    expect((await post(`/documents/${live.id}/undelete`, admin)).status).toBe(404);
    await deleteItem(t.db, 'documents', live.id, admin.id);
    expect((await post(`/knowledge-base/${live.id}/undelete`, admin)).status).toBe(404);
    expect((await post('/documents/not-a-uuid/undelete', admin)).status).toBe(404);
    const res = await post(`/documents/${live.id}/undelete`, admin);
    expect(res.headers.get('location')).toBe(`/documents/deleted?restored=${live.id}`);
    expect(await (await get(res.headers.get('location')!, admin)).text()).toContain(
      `href="/documents/${live.id}/live-doc"`,
    );
  });
});
