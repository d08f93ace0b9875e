import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents, documentShares, objects } from '../../src/db/schema';
import { createItem, type getItem } from '../../src/knowledge/service';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Visibility, owner and share routes (owners and admins only), and share links' public read-only page. */
let t: TestContext;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
type Item = NonNullable<Awaited<ReturnType<typeof getItem>>>;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const req = (who: TestUser | null, method: string, path: string, body?: unknown) =>
  t.app.request(path, jsonRequest(method, body, who?.cookie));
const base = '/api/knowledge-base';

async function image(visibility: 'public' | 'private') {
  const [row] = await t.db
    .insert(objects)
    .values({ ownerId: owner.id, contentType: 'image/png', size: PNG.length, data: PNG, visibility })
    .returning({ id: objects.id });
  return row.id;
}

async function restrictedItem(title: string, content = 'Body.'): Promise<Item> {
  const item = await createItem(t.db, 'knowledge', { title, content }, owner.id);
  await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
  return item;
}

async function link(item: Item, body: Record<string, unknown> = {}) {
  const res = await req(owner, 'POST', `${base}/${item.id}/shares`, { link: true, ...body });
  expect(res.status).toBe(201);
  const share = await res.json();
  return { share, path: new URL(share.url).pathname };
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await createSignedInUser(t.db, { firstName: 'Olga', lastName: 'Owner' });
  other = await createSignedInUser(t.db, { firstName: 'Bob', lastName: 'Other' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
});
afterAll(() => t.close());

describe('visibility, owner and shares (owners and admins)', () => {
  it('the owner restricts an item, shares it and revokes the share; each step is audit-logged', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Firewall rules', content: 'x' }, owner.id);
    const vis = await req(owner, 'PUT', `${base}/${item.id}/visibility`, { visibility: 'restricted' });
    expect(vis.status).toBe(200);
    expect((await req(other, 'GET', `${base}/${item.id}`)).status).toBe(404);
    const created = await req(owner, 'POST', `${base}/${item.id}/shares`, { userId: other.id, permission: 'read' });
    expect(created.status).toBe(201);
    const share = await created.json();
    expect(share).toMatchObject({ permission: 'read', user: { id: other.id, name: 'Bob Other' } });
    expect((await req(other, 'GET', `${base}/${item.id}`)).status).toBe(200);
    const list = await (await req(owner, 'GET', `${base}/${item.id}/shares`)).json();
    expect(list.map((s: { id: string }) => s.id)).toEqual([share.id]);
    expect((await req(owner, 'DELETE', `${base}/${item.id}/shares/${share.id}`)).status).toBe(200);
    expect((await req(other, 'GET', `${base}/${item.id}`)).status).toBe(404);
    expect(await (await req(owner, 'GET', `${base}/${item.id}/shares`)).json()).toEqual([]);
    const [row] = await t.db.select().from(documentShares).where(eq(documentShares.id, share.id));
    expect(row.revokedAt).not.toBeNull();
    const actions = (await t.db.select().from(auditLog).where(eq(auditLog.entityId, item.id))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['knowledge.visibility', 'knowledge.share', 'knowledge.unshare']));
  });

  it('transfers ownership to an active user only; the new owner then manages it', async () => {
    const item = await restrictedItem('Handover notes');
    const bad = await req(owner, 'PUT', `${base}/${item.id}/owner`, {
      ownerId: '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d',
    });
    expect(bad.status).toBe(400);
    expect((await req(owner, 'PUT', `${base}/${item.id}/owner`, { ownerId: other.id })).status).toBe(200);
    expect((await req(other, 'GET', `${base}/${item.id}`)).status).toBe(200);
    expect((await req(other, 'GET', `${base}/${item.id}/shares`)).status).toBe(200);
    expect((await req(owner, 'GET', `${base}/${item.id}`)).status).toBe(404);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, item.id), eq(auditLog.action, 'knowledge.owner')));
    expect(audit.details).toMatchObject({ from: owner.id, to: other.id });
  });

  it('refuses others: 403 when they can read the item, 404 when they cannot; admins may', async () => {
    const open = await createItem(t.db, 'knowledge', { title: 'Open item', content: 'x' }, owner.id);
    const hidden = await restrictedItem('Hidden item');
    for (const [method, suffix, body] of [
      ['PUT', 'visibility', { visibility: 'everyone' }],
      ['PUT', 'owner', { ownerId: other.id }],
      ['GET', 'shares', undefined],
      ['POST', 'shares', { link: true }],
      ['DELETE', 'shares/3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d', undefined],
    ] as const) {
      const readable = await req(other, method, `${base}/${open.id}/${suffix}`, body);
      expect(readable.status, `${method} ${suffix}`).toBe(403);
      expect((await readable.json()).message).toBeTruthy();
      expect((await req(other, method, `${base}/${hidden.id}/${suffix}`, body)).status, suffix).toBe(404);
    }
    expect((await req(admin, 'GET', `${base}/${hidden.id}/shares`)).status).toBe(200);
    expect((await req(null, 'GET', `${base}/${hidden.id}/shares`)).status).toBe(401);
  });

  it('validates the bodies (400 with a message)', async () => {
    const item = await restrictedItem('Validated');
    for (const [path, body] of [
      ['visibility', { visibility: 'nobody' }],
      ['shares', { userId: 'nope' }],
      ['shares', { link: true, expiresAt: '2001-01-01T00:00:00Z' }],
      ['shares', {}],
    ] as const) {
      const res = await req(owner, path === 'visibility' ? 'PUT' : 'POST', `${base}/${item.id}/${path}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toBeTruthy();
    }
  });

  it('lists active users for the picker (GET /api/users?q=)', async () => {
    const found = await (await req(owner, 'GET', '/api/users?q=bob')).json();
    expect(found).toEqual([{ id: other.id, name: 'Bob Other', email: other.email }]);
    expect((await req(null, 'GET', '/api/users?q=bob')).status).toBe(401);
  });

  it('shows the Share button on the read page to the owner and admins only', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Button check', content: 'x' }, owner.id);
    const page = async (who: TestUser) => (await req(who, 'GET', `/knowledge-base/${item.id}`)).text();
    expect(await page(owner)).toContain('data-island-trigger="ShareDialog"');
    expect(await page(admin)).toContain('data-island-trigger="ShareDialog"');
    expect(await page(other)).not.toContain('data-island-trigger="ShareDialog"');
    const editor = async (who: TestUser) => (await req(who, 'GET', `/knowledge-base/${item.id}/edit`)).text();
    expect(await editor(owner)).toContain('&quot;sharing&quot;:{&quot;visibility&quot;:&quot;everyone&quot;}');
    expect(await editor(other)).not.toContain('&quot;sharing&quot;');
  });
});

describe('share links', () => {
  it('answers its url once; the token is kept only as its sha256', async () => {
    const item = await restrictedItem('Link once');
    const { share, path } = await link(item);
    expect(share.url).toMatch(/^http:\/\/localhost:3000\/s\/[A-Za-z0-9_-]{43}$/);
    const token = path.slice(3);
    const [row] = await t.db.select().from(documentShares).where(eq(documentShares.id, share.id));
    expect(row.shareToken).toBe(createHash('sha256').update(token).digest('hex'));
    const listed = await (await req(owner, 'GET', `${base}/${item.id}/shares`)).json();
    expect(listed[0]).toMatchObject({ id: share.id, user: null });
    expect(listed[0].url).toBeUndefined();
  });

  it('opens the item signed out: noindex, no app chrome, no script, no link to another item; records the opening', async () => {
    const linked = await createItem(t.db, 'knowledge', { title: 'Other runbook', content: 'o' }, owner.id);
    const content = `# Steps\n\nSee [the other runbook](/knowledge-base/${linked.id}) and [docs](https://example.com/x).`;
    const item = await restrictedItem('Public steps', content);
    const { share, path } = await link(item);
    const res = await t.app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    const page = await res.text();
    expect(page).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(page).toContain('Public steps');
    expect(page).toContain('the other runbook');
    expect(page).toContain('href="https://example.com/x"');
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toContain(t.deps.assets.boot);
    expect(page).not.toContain(linked.id);
    expect(page).not.toMatch(/<a [^>]*href="(\/|http:\/\/localhost)/);
    expect(page).toContain('<a>the other runbook</a>');
    expect(page).not.toContain('class="sidebar');
    const [row] = await t.db.select().from(documentShares).where(eq(documentShares.id, share.id));
    expect(row.lastOpenedAt).not.toBeNull();
  });

  it('shows the item’s private image through the share, and no other item’s image', async () => {
    const mine = await image('private');
    const attached = await image('private');
    const foreign = await image('private');
    await createItem(t.db, 'knowledge', { title: 'Foreign', content: `![f](/objects/${foreign})` }, owner.id);
    const item = await restrictedItem('With picture', `![diagram](/objects/${mine})`);
    await t.db
      .update(documents)
      .set({ attachedImages: [`/objects/${attached}`] })
      .where(eq(documents.id, item.id));
    const { path } = await link(item);
    const page = await (await t.app.request(path)).text();
    expect(page).toContain(`src="${path}/images/${mine}"`);
    expect((await t.app.request(`/objects/${mine}`)).status).toBe(404);
    for (const id of [mine, attached]) {
      const res = await t.app.request(`${path}/images/${id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    }
    expect((await t.app.request(`${path}/images/${foreign}`)).status).toBe(404);
  });

  it('answers 404 with no detail to unknown, expired and revoked tokens and to a deleted item', async () => {
    const item = await restrictedItem('Link ends');
    const expiring = await link(item, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await t.db
      .update(documentShares)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(documentShares.id, expiring.share.id));
    const revoked = await link(item);
    expect((await req(owner, 'DELETE', `${base}/${item.id}/shares/${revoked.share.id}`)).status).toBe(200);
    const deletedItem = await restrictedItem('Deleted later');
    const ofDeleted = await link(deletedItem);
    expect((await req(owner, 'DELETE', `${base}/${deletedItem.id}`)).status).toBe(200);
    const unknown = `/s/${'A'.repeat(43)}`;
    const pages = [];
    for (const path of [expiring.path, revoked.path, ofDeleted.path, unknown, '/s/short']) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('x-robots-tag')).toContain('noindex');
      const text = await res.text();
      expect(text).not.toMatch(/<script|expired|revoked|deleted/i);
      pages.push(text);
    }
    expect(new Set(pages).size).toBe(1);
  });

  it('limits lookups per address (429-free 404s once the limit is reached)', async () => {
    const item = await restrictedItem('Rate limited');
    const { path } = await link(item);
    await t.db.execute(`delete from rate_limit_hits where key like 'share-link:%'`);
    for (let i = 0; i < 60; i++) await t.app.request(`/s/${'B'.repeat(43)}`);
    expect((await t.app.request(path)).status).toBe(404);
    await t.db.execute(`delete from rate_limit_hits where key like 'share-link:%'`);
    expect((await t.app.request(path)).status).toBe(200);
  });
});
