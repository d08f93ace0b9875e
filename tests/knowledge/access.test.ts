import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, documentShares } from '../../src/db/schema';
import { listDeleted } from '../../src/knowledge/deleted';
import { createItem, deleteItem, type getItem } from '../../src/knowledge/service';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/**
 * Item permissions on the knowledge base and documents: a restricted item owned by A is absent for B everywhere
 * (API and rendered HTML) and answers 404 by id; shares let B read or edit it; viewers never create.
 */
let t: TestContext;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let viewer: TestUser;
let secret: NonNullable<Awaited<ReturnType<typeof getItem>>>;
let secretDoc: NonNullable<Awaited<ReturnType<typeof getItem>>>;

const SECRET = 'Vault recovery keys';
const req = (who: TestUser, method: string, path: string, body?: unknown) =>
  t.app.request(path, jsonRequest(method, body, who.cookie));
const html = async (who: TestUser, path: string) => (await req(who, 'GET', path)).text();
const restrict = (id: string) => t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, id));
const share = (id: string, who: TestUser, permission: 'read' | 'write') =>
  t.db
    .insert(documentShares)
    .values({ documentId: id, sharedByUserId: owner.id, sharedWithUserId: who.id, permission });
const edit = { title: SECRET, content: 'Changed.' };

beforeAll(async () => {
  t = await createTestApp();
  owner = await createSignedInUser(t.db, { firstName: 'Olga', lastName: 'Owner' });
  other = await createSignedInUser(t.db, { firstName: 'Bob', lastName: 'Other' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  await createItem(t.db, 'knowledge', { title: 'Open runbook', content: 'x', category: 'Vault' }, owner.id);
  secret = await createItem(t.db, 'knowledge', { title: SECRET, content: 'Keys.', category: 'Vault' }, owner.id);
  await createItem(t.db, 'knowledge', { title: 'Hidden corner', content: 'y', category: 'Secret corner' }, owner.id);
  secretDoc = await createItem(t.db, 'documents', { title: 'Secret contract', content: 'z' }, owner.id);
  await restrict(secret.id);
  await restrict(secretDoc.id);
  const [corner] = await t.db.select().from(documents).where(eq(documents.title, 'Hidden corner'));
  await restrict(corner.id);
});
afterAll(() => t.close());

describe('every item answer names its owner and visibility', () => {
  it('in the list rows and the single item', async () => {
    const list = await (await req(owner, 'GET', '/api/knowledge-base')).json();
    const row = list.find((i: { id: string }) => i.id === secret.id);
    expect(row).toMatchObject({ ownerId: owner.id, visibility: 'restricted' });
    const one = await (await req(owner, 'GET', `/api/knowledge-base/${secret.id}`)).json();
    expect(one).toMatchObject({ ownerId: owner.id, visibility: 'restricted', owner: { firstName: 'Olga' } });
  });
});

describe('a restricted item another editor may not read', () => {
  it('answers 404 by id: API, include=html, read page, editor page, version history, delete page', async () => {
    for (const path of [
      `/api/knowledge-base/${secret.id}`,
      `/api/knowledge-base/${secret.id}?include=html`,
      `/api/knowledge-base/${secret.id}/versions`,
      `/knowledge-base/${secret.id}`,
      `/knowledge-base/${secret.id}/edit`,
      `/knowledge-base/${secret.id}/delete`,
      `/api/documents/${secretDoc.id}`,
      `/documents/${secretDoc.id}/edit`,
    ]) {
      const res = await req(other, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain(SECRET);
    }
  });

  it('answers 404 (not 403) to writes: update, delete, restore', async () => {
    expect((await req(other, 'PUT', `/api/knowledge-base/${secret.id}`, edit)).status).toBe(404);
    expect((await req(other, 'DELETE', `/api/knowledge-base/${secret.id}`)).status).toBe(404);
    const [v] = await (await req(owner, 'GET', `/api/knowledge-base/${secret.id}/versions`)).json();
    expect((await req(other, 'POST', `/api/knowledge-base/${secret.id}/restore/${v.id}`)).status).toBe(404);
  });

  it('is absent from the list, the totals, the categories and the category tree (API and HTML)', async () => {
    const list = await (await req(other, 'GET', '/api/knowledge-base')).json();
    expect(list.map((i: { title: string }) => i.title)).toEqual(['Open runbook']);
    const grid = await html(other, '/knowledge-base');
    expect(grid).toContain('Open runbook');
    expect(grid).not.toContain(SECRET);
    // The only item of its category: the category is gone from the filter too.
    expect(grid).not.toContain('Secret corner');
    const tree = await html(other, '/knowledge-base?view=category');
    expect(tree).not.toContain(SECRET);
    expect(tree).not.toContain('Secret corner');
    expect(tree).toContain('&quot;count&quot;:1');
    const limited = await html(other, '/knowledge-base?view=list&limit=1');
    expect(limited).not.toContain('Showing 1 of');
    // A category's total too (taken from the counts the page read for its category filter).
    const vault = async (who: TestUser) =>
      (await html(who, '/knowledge-base?view=list&category=Vault&limit=1')).replaceAll('<!-- -->', '');
    expect(await vault(other)).not.toContain('Showing 1 of');
    expect(await vault(owner)).toContain('Showing 1 of 2');
    expect(await html(other, '/documents')).not.toContain('Secret contract');
    expect(await html(other, `/knowledge-base?doc=${secret.id}`)).not.toContain(SECRET);
  });

  it('is there for its owner and for admins, with its counts', async () => {
    for (const who of [owner, admin]) {
      const tree = await html(who, '/knowledge-base?view=category');
      expect(tree).toContain(SECRET);
      expect(tree).toContain('Secret corner');
      expect(tree).toContain('&quot;count&quot;:2');
      expect((await req(who, 'GET', `/knowledge-base/${secret.id}`)).status).toBe(200);
    }
  });

  it('is left out of the deleted items for a reader who may not read it (admins see everything)', async () => {
    const gone = await createItem(t.db, 'documents', { title: 'Deleted secret', content: 'x' }, owner.id);
    await restrict(gone.id);
    await deleteItem(t.db, 'documents', gone.id, owner.id);
    expect((await req(other, 'GET', '/documents/deleted')).status).toBe(403);
    const otherId = { id: other.id, role: 'editor' };
    expect((await listDeleted(t.db, 'documents', otherId)).map((d) => d.title)).not.toContain('Deleted secret');
    expect((await listDeleted(t.db, 'documents', { id: owner.id, role: 'editor' })).map((d) => d.title)).toContain(
      'Deleted secret',
    );
    expect(await html(admin, '/documents/deleted')).toContain('Deleted secret');
  });
});

describe('shares with a user', () => {
  it('a read share lets them read but not write (403)', async () => {
    const item = await createItem(t.db, 'documents', { title: 'Shared to read', content: 'r' }, owner.id);
    await restrict(item.id);
    await share(item.id, other, 'read');
    expect((await req(other, 'GET', `/api/documents/${item.id}`)).status).toBe(200);
    expect((await req(other, 'GET', `/documents/${item.id}`)).status).toBe(200);
    expect((await req(other, 'GET', `/api/documents/${item.id}/versions`)).status).toBe(200);
    expect((await req(other, 'PUT', `/api/documents/${item.id}`, edit)).status).toBe(403);
    expect((await req(other, 'DELETE', `/api/documents/${item.id}`)).status).toBe(403);
    expect((await req(other, 'GET', `/documents/${item.id}/edit`)).status).toBe(403);
    const page = await html(other, `/documents/${item.id}`);
    expect(page).not.toContain(`href="/documents/${item.id}/edit"`);
    expect(page).not.toContain('data-island-trigger="ShareDialog"');
    const list = await (await req(other, 'GET', '/api/documents')).json();
    expect(list.map((i: { id: string }) => i.id)).toContain(item.id);
  });

  it('a write share lets them edit', async () => {
    const item = await createItem(t.db, 'documents', { title: 'Shared to edit', content: 'w' }, owner.id);
    await restrict(item.id);
    await share(item.id, other, 'write');
    const res = await req(other, 'PUT', `/api/documents/${item.id}`, { title: 'Shared to edit', content: 'Edited.' });
    expect(res.status).toBe(200);
    expect((await res.json()).version).toBe(2);
    expect((await req(other, 'GET', `/documents/${item.id}/edit`)).status).toBe(200);
  });

  it('a viewer with a write share edits that item, yet still may not create one', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Viewer may edit', content: 'v' }, owner.id);
    await restrict(item.id);
    await share(item.id, viewer, 'write');
    const res = await req(viewer, 'PUT', `/api/knowledge-base/${item.id}`, { title: 'Viewer may edit', content: 'ok' });
    expect(res.status).toBe(200);
    const create = await req(viewer, 'POST', '/api/knowledge-base', { title: 'New', content: 'n' });
    expect(create.status).toBe(403);
    expect((await create.json()).message).toBeTruthy();
  });

  it('an expired or revoked share reads nothing', async () => {
    const item = await createItem(t.db, 'documents', { title: 'Share gone', content: 'g' }, owner.id);
    await restrict(item.id);
    await t.db.insert(documentShares).values([
      { documentId: item.id, sharedWithUserId: other.id, expiresAt: new Date(Date.now() - 1000) },
      { documentId: item.id, sharedWithUserId: other.id, revokedAt: new Date() },
    ]);
    expect((await req(other, 'GET', `/api/documents/${item.id}`)).status).toBe(404);
  });
});

describe('viewers and auditors write nothing', () => {
  it('answers 403 { message } on every write route and shows no create, edit or delete buttons', async () => {
    const auditor = await createSignedInUser(t.db, { role: 'auditor' });
    const open = await createItem(t.db, 'documents', { title: 'Everyone reads', content: 'e' }, owner.id);
    for (const who of [viewer, auditor]) {
      for (const [method, path, body] of [
        ['POST', '/api/documents', edit],
        ['PUT', `/api/documents/${open.id}`, edit],
        ['DELETE', `/api/documents/${open.id}`, undefined],
      ] as const) {
        const res = await req(who, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect((await res.json()).message).toBeTruthy();
      }
      expect((await req(who, 'GET', '/documents/new')).status).toBe(403);
      expect((await req(who, 'GET', `/documents/${open.id}/edit`)).status).toBe(403);
      const list = await html(who, '/documents');
      expect(list).toContain('Everyone reads');
      expect(list).not.toContain('href="/documents/new"');
      expect(list).not.toContain('/delete"');
      const kb = await html(who, '/knowledge-base');
      expect(kb).not.toContain('Create New');
      expect(kb).not.toContain('Auto Create KB');
      const tree = await html(who, '/knowledge-base?view=category');
      expect(tree).toContain('&quot;canWrite&quot;:false');
      const page = await html(who, `/documents/${open.id}`);
      expect(page).not.toContain('>Edit<');
      expect(page).not.toContain('>Delete<');
      const preview = await (await req(who, 'GET', `/api/documents/${open.id}?include=html`)).json();
      expect(preview).toMatchObject({ canWrite: false, canShare: false });
    }
  });
});
