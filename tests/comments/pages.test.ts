import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** The comments section of an item's read page: server-rendered threads and plain/htmx forms. */
let t: TestContext;
let owner: TestUser;
let viewer: TestUser;
let outsider: TestUser;

const page = async (who: TestUser, path: string) => t.app.request(path, { headers: { Cookie: who.cookie } });
const form = (who: TestUser, path: string, fields: Record<string, string>, htmx = false) =>
  t.app.request(path, {
    method: 'POST',
    headers: {
      Cookie: who.cookie,
      Origin: TEST_ORIGIN,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(htmx ? { 'HX-Request': 'true', 'HX-Target': 'comments' } : {}),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
const apiPost = async (who: TestUser, id: string, body: unknown) =>
  (await t.app.request(`/api/knowledge-base/${id}/comments`, jsonRequest('POST', body, who.cookie))).json();
const newItem = (title = 'Restart the print spooler') =>
  createItem(t.db, 'knowledge', { title, content: 'Run `net stop spooler`.' }, owner.id);

beforeAll(async () => {
  t = await createTestApp();
  owner = await createSignedInUser(t.db, { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com' });
  viewer = await createSignedInUser(t.db, { role: 'viewer', firstName: 'Vera', lastName: 'V', email: 'vera@ex.com' });
  outsider = await createSignedInUser(t.db, { email: 'otto@example.com' });
});
afterAll(() => t.close());

describe('the read page’s comments', () => {
  it('shows the empty state, then each comment with its anchor and a mention as a name (the kept page is renewed)', async () => {
    const item = await newItem();
    const empty = await (await page(viewer, `/knowledge-base/${item.id}`)).text();
    expect(empty).toContain('id="comments"');
    expect(empty).toContain('No comments yet.');
    const c = await apiPost(owner, item.id, { body: 'Ask @vera@ex.com', quote: 'net stop spooler' });
    const html = await (await page(viewer, `/knowledge-base/${item.id}`)).text();
    expect(html).toContain(`id="comment-${c.id}"`);
    expect(html).toContain('@Vera V</span>');
    expect(html).toContain('<blockquote class="comment__quote">net stop spooler</blockquote>');
    expect(html).toContain('Comments (1)');
  });

  it('collapses resolved threads', async () => {
    const item = await newItem();
    const c = await apiPost(owner, item.id, { body: 'Done already' });
    await t.app.request(`/api/comments/${c.id}/resolve`, jsonRequest('POST', undefined, owner.cookie));
    const html = await (await page(viewer, `/knowledge-base/${item.id}`)).text();
    expect(html).toMatch(new RegExp(`<details data-thread="${c.id}"><summary[^>]*>Resolved thread by Olga Owner`));
  });

  it('posts a comment and a reply with a plain form (back to the page at the comment) and with htmx (the section)', async () => {
    const item = await newItem();
    const res = await form(viewer, `/knowledge-base/${item.id}/comments`, { body: 'Plain form comment' });
    expect(res.status).toBe(303);
    const [root] = await (await page(viewer, `/api/knowledge-base/${item.id}/comments`)).json();
    expect(res.headers.get('location')).toBe(`/knowledge-base/${item.id}/restart-the-print-spooler#comment-${root.id}`);
    const htmx = await form(
      viewer,
      `/knowledge-base/${item.id}/comments`,
      { body: 'Via htmx', parentId: root.id },
      true,
    );
    expect(htmx.status).toBe(200);
    const section = await htmx.text();
    expect(section).toMatch(/^<section id="comments"/);
    expect(section).toContain('Via htmx');
    expect(section).toContain('Comments (2)');
  });

  it('refuses an empty comment: 422 page with the message, or the section with an error toast for htmx', async () => {
    const item = await newItem();
    const plain = await form(viewer, `/knowledge-base/${item.id}/comments`, { body: '  ' });
    expect(plain.status).toBe(422);
    expect(await plain.text()).toContain('Write a comment first');
    const htmx = await form(viewer, `/knowledge-base/${item.id}/comments`, { body: '' }, true);
    expect(htmx.status).toBe(200);
    expect(htmx.headers.get('HX-Trigger')).toContain('showToast');
    expect(await htmx.text()).toContain('Write a comment first');
  });

  it('edits, resolves and deletes through the comment forms, by the rules', async () => {
    const item = await newItem();
    const c = await apiPost(owner, item.id, { body: 'Owner note' });
    expect((await form(viewer, `/comments/${c.id}/edit`, { body: 'Not mine' })).status).toBe(403);
    expect((await form(owner, `/comments/${c.id}/edit`, { body: 'Edited note' })).status).toBe(303);
    const resolved = await form(owner, `/comments/${c.id}/resolve`, {}, true);
    expect(await resolved.text()).toContain('Resolved thread by Olga Owner');
    const del = await form(owner, `/comments/${c.id}/delete`, {});
    expect(del.headers.get('location')).toMatch(/#comments$/);
    expect((await t.db.select().from(documents).where(eq(documents.id, item.id)))[0].commentCount).toBe(0);
  });

  it('answers 404 to someone who may not read a restricted item, on its comment forms too', async () => {
    const item = await newItem('Restricted');
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    const c = await apiPost(owner, item.id, { body: 'Hidden' });
    expect((await page(outsider, `/knowledge-base/${item.id}/comments`)).status).toBe(404);
    expect((await form(outsider, `/knowledge-base/${item.id}/comments`, { body: 'x' })).status).toBe(404);
    for (const action of ['edit', 'delete', 'resolve', 'reopen'])
      expect((await form(outsider, `/comments/${c.id}/${action}`, { body: 'x' })).status).toBe(404);
  });

  it('shows the comment count on cards and list rows', async () => {
    const item = await newItem('Counted item');
    await apiPost(owner, item.id, { body: 'one' });
    await apiPost(viewer, item.id, { body: 'two' });
    for (const view of ['grid', 'list']) {
      const html = await (await page(viewer, `/knowledge-base?view=${view}&q=Counted`)).text();
      expect(html, view).toContain('2 comments</span>');
    }
  });

  it('shows the comment count on the documents list', async () => {
    const doc = await createItem(t.db, 'documents', { title: 'Counted document', content: 'x' }, owner.id);
    await t.app.request(`/api/documents/${doc.id}/comments`, jsonRequest('POST', { body: 'one' }, owner.cookie));
    const html = await (await page(viewer, '/documents?q=Counted')).text();
    expect(html).toContain('1 comment</span>');
  });

  it('loads the threads under the editor with htmx; the same address without htmx is a page of its own', async () => {
    const item = await newItem('Edited with comments');
    await apiPost(owner, item.id, { body: 'Seen in the editor' });
    const editor = await (await page(owner, `/knowledge-base/${item.id}/edit`)).text();
    expect(editor).toContain(`hx-get="/knowledge-base/${item.id}/comments"`);
    const htmx = await t.app.request(`/knowledge-base/${item.id}/comments`, {
      headers: { Cookie: owner.cookie, 'HX-Request': 'true' },
    });
    const section = await htmx.text();
    expect(section).toMatch(/^<section id="comments"/);
    expect(section).toContain('Seen in the editor');
    const full = await (await page(owner, `/knowledge-base/${item.id}/comments`)).text();
    expect(full).toContain('<!DOCTYPE html>');
    expect(full).toContain('Back to the item');
    expect(full).toContain('Seen in the editor');
  });
});
