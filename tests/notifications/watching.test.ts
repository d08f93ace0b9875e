import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, documentShares, documentVersions, documentWatchers, notifications } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Watching an item (PUT|DELETE /api/{base}/{id}/watch) and watchers told of new versions (issue 22). */
let t: TestContext;
let author: TestUser;
let editor: TestUser;
let viewer: TestUser;
let auditor: TestUser;

const req = (who: TestUser, method: string, path: string, body?: unknown) =>
  t.app.request(path, jsonRequest(method, body, who.cookie));

const watchers = async (id: string) =>
  (await t.db.select().from(documentWatchers).where(eq(documentWatchers.documentId, id))).map((w) => w.userId).sort();

const toldOf = async (id: string) =>
  (await t.db.select().from(notifications).where(eq(notifications.documentId, id))).map((n) => n.userId).sort();

async function save(who: TestUser, base: string, id: string, title: string) {
  const current = await (await req(who, 'GET', `${base}/${id}`)).json();
  const res = await req(who, 'PUT', `${base}/${id}`, { title, content: `${title} body`, version: current.version });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  author = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Author' });
  editor = await createSignedInUser(t.db, { firstName: 'Eddie', lastName: 'Editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  auditor = await createSignedInUser(t.db, { role: 'auditor' });
});
afterAll(() => t.close());

describe('PUT|DELETE /api/{base}/{id}/watch', () => {
  it('a viewer and an auditor watch and unwatch an item they may read, on both bases', async () => {
    for (const [space, base] of [
      ['knowledge', '/api/knowledge-base'],
      ['documents', '/api/documents'],
    ] as const) {
      const item = await createItem(t.db, space, { title: `Runbook ${space}`, content: 'x' }, author.id);
      for (const who of [viewer, auditor]) {
        const on = await req(who, 'PUT', `${base}/${item.id}/watch`);
        expect(on.status).toBe(200);
        expect(await on.json()).toEqual({ watching: true });
        // Idempotent.
        expect((await req(who, 'PUT', `${base}/${item.id}/watch`)).status).toBe(200);
      }
      expect(await watchers(item.id)).toEqual([author.id, viewer.id, auditor.id].sort());
      const off = await req(viewer, 'DELETE', `${base}/${item.id}/watch`);
      expect(await off.json()).toEqual({ watching: false });
      expect(await watchers(item.id)).toEqual([author.id, auditor.id].sort());
    }
  });

  it('answers 404 for a restricted item the user may not read, an unknown id, or the other base', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Secret', content: 'x' }, author.id);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    for (const [method, path] of [
      ['PUT', `/api/knowledge-base/${item.id}/watch`],
      ['DELETE', `/api/knowledge-base/${item.id}/watch`],
      ['PUT', `/api/documents/${item.id}/watch`],
      ['PUT', '/api/knowledge-base/00000000-0000-4000-8000-000000000000/watch'],
      ['PUT', '/api/knowledge-base/not-a-uuid/watch'],
    ]) {
      const res = await req(viewer, method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(typeof (await res.json()).message).toBe('string');
    }
    expect(await watchers(item.id)).toEqual([author.id]);
  });

  it('signed out: 401', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Open', content: 'x' }, author.id);
    const res = await t.app.request(`/api/knowledge-base/${item.id}/watch`, jsonRequest('PUT'));
    expect(res.status).toBe(401);
  });

  it('the read page form watches and unwatches without JavaScript, and answers the new button to htmx', async () => {
    const item = await createItem(t.db, 'documents', { title: 'Form watch', content: 'x' }, author.id);
    const form = (watch: string, htmx = false) =>
      t.app.request(`/documents/${item.id}/watch`, {
        method: 'POST',
        headers: {
          Origin: 'http://localhost:3000',
          Cookie: viewer.cookie,
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(htmx ? { 'HX-Request': 'true' } : {}),
        },
        body: `watch=${watch}`,
      });
    const page = await t.app.request(`/documents/${item.id}`, { headers: { Cookie: viewer.cookie } });
    expect(await page.text()).toMatch(/<button[^>]*>Watch<\/button>/);
    const res = await form('on');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/documents/${item.id}`);
    const after = await t.app.request(`/documents/${item.id}`, { headers: { Cookie: viewer.cookie } });
    expect(await after.text()).toMatch(/<button[^>]*>Unwatch<\/button>/);
    const fragment = await form('off', true);
    expect(fragment.status).toBe(200);
    const html = await fragment.text();
    expect(html).toMatch(/<button[^>]*>Watch<\/button>/);
    expect(html).not.toContain('<html');
    expect(await watchers(item.id)).toEqual([author.id]);
    expect((await form('maybe')).status).toBe(400);
  });
});

describe('watchers are told of new versions', () => {
  it('create and update make the actor a watcher', async () => {
    const res = await req(author, 'POST', '/api/knowledge-base', { title: 'Patch servers', content: 'x' });
    const item = await res.json();
    expect(await watchers(item.id)).toEqual([author.id]);
    await save(editor, '/api/knowledge-base', item.id, 'Patch servers v2');
    expect(await watchers(item.id)).toEqual([author.id, editor.id].sort());
  });

  it('an update tells every watcher but the actor, in words, with a link to the read page', async () => {
    const item = await createItem(t.db, 'documents', { title: 'Backup plan', content: 'x' }, author.id);
    await req(viewer, 'PUT', `/api/documents/${item.id}/watch`);
    await save(editor, '/api/documents', item.id, 'Backup plan 2');
    const rows = await t.db.select().from(notifications).where(eq(notifications.documentId, item.id));
    expect(rows.map((r) => r.userId).sort()).toEqual([author.id, viewer.id].sort());
    for (const r of rows) {
      expect(r).toMatchObject({
        kind: 'item_changed',
        actorId: editor.id,
        link: `/documents/${item.id}`,
        text: 'Eddie Editor updated "Backup plan 2" (version 2)',
        readAt: null,
        emailedAt: null,
      });
    }
  });

  it('a restore tells the watchers too, not the actor', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Restore me', content: 'one' }, author.id);
    await req(viewer, 'PUT', `/api/knowledge-base/${item.id}/watch`);
    await save(author, '/api/knowledge-base', item.id, 'Restore me 2');
    await t.db.delete(notifications).where(eq(notifications.documentId, item.id));
    const [v1] = await t.db
      .select()
      .from(documentVersions)
      .where(and(eq(documentVersions.documentId, item.id), eq(documentVersions.version, 1)));
    const res = await req(editor, 'POST', `/api/knowledge-base/${item.id}/restore/${v1.id}`);
    expect(res.status).toBe(200);
    const rows = await t.db.select().from(notifications).where(eq(notifications.documentId, item.id));
    expect(rows.map((r) => r.userId).sort()).toEqual([author.id, viewer.id].sort());
    expect(rows[0].text).toBe('Eddie Editor restored an earlier version of "Restore me" (version 3)');
  });

  it('a watcher who lost access to a restricted item is not told; one with a share is', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Restricted runbook', content: 'x' }, author.id);
    await req(viewer, 'PUT', `/api/knowledge-base/${item.id}/watch`);
    await req(auditor, 'PUT', `/api/knowledge-base/${item.id}/watch`);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    await t.db.insert(documentShares).values({
      documentId: item.id,
      sharedWithUserId: auditor.id,
      sharedByUserId: author.id,
      permission: 'read',
    });
    await save(author, '/api/knowledge-base', item.id, 'Restricted runbook 2');
    expect(await toldOf(item.id)).toEqual([auditor.id]);
  });

  it('a failed save (stale version, 409) tells nobody', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Stale', content: 'x' }, author.id);
    await req(viewer, 'PUT', `/api/knowledge-base/${item.id}/watch`);
    const res = await req(editor, 'PUT', `/api/knowledge-base/${item.id}`, {
      title: 'Stale 2',
      content: 'y',
      version: 7,
    });
    expect(res.status).toBe(409);
    expect(await toldOf(item.id)).toEqual([]);
    expect(await watchers(item.id)).toEqual([author.id, viewer.id].sort());
  });
});
