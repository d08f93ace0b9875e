import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents, documentShares, documentWatchers, notifications } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { COMMENT_MAX } from '../../src/comments/shared';
import { COMMENTS_PER_TEN_MINUTES } from '../../src/comments/commands';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Comments and mentions (issue 22): who may comment, edit, delete, resolve; counts, notifications, audit. */
let t: TestContext;
let owner: TestUser;
let editor: TestUser;
let viewer: TestUser;
let auditor: TestUser;
let admin: TestUser;
let outsider: TestUser;

const base = '/api/knowledge-base';
const req = (who: TestUser, method: string, path: string, body?: unknown) =>
  t.app.request(path, jsonRequest(method, body, who.cookie));
const newItem = async (title = 'Patch Windows servers') =>
  createItem(t.db, 'knowledge', { title, content: 'Reboot after patching.' }, owner.id);
async function post(who: TestUser, itemId: string, body: unknown, b = base) {
  const res = await req(who, 'POST', `${b}/${itemId}/comments`, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}
const countOf = async (id: string) =>
  (await t.db.select({ n: documents.commentCount }).from(documents).where(eq(documents.id, id)))[0].n;
const notesOf = (userId: string) => t.db.select().from(notifications).where(eq(notifications.userId, userId));

beforeAll(async () => {
  t = await createTestApp();
  owner = await createSignedInUser(t.db, { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com' });
  editor = await createSignedInUser(t.db, { firstName: 'Ed', lastName: 'Itor', email: 'ed@example.com' });
  viewer = await createSignedInUser(t.db, {
    role: 'viewer',
    firstName: 'Vera',
    lastName: 'Viewer',
    email: 'vera@example.com',
  });
  auditor = await createSignedInUser(t.db, { role: 'auditor', email: 'audrey@example.com' });
  admin = await createSignedInUser(t.db, { role: 'admin', email: 'root@example.com' });
  outsider = await createSignedInUser(t.db, { firstName: 'Otto', lastName: 'Side', email: 'otto@example.com' });
});
afterAll(() => t.close());

describe('posting and listing', () => {
  it('lets a viewer and an auditor comment and reply; the list answers the contract fields, oldest first', async () => {
    const item = await newItem();
    const root = await post(viewer, item.id, { body: 'Which **reboot** window?', quote: 'Reboot after patching.' });
    expect(root).toMatchObject({
      body: 'Which **reboot** window?',
      parentId: null,
      quote: 'Reboot after patching.',
      resolvedAt: null,
      author: { id: viewer.id, name: 'Vera Viewer' },
      canEdit: true,
    });
    expect(root.html).toContain('<strong>reboot</strong>');
    expect(Date.parse(root.createdAt)).not.toBeNaN();
    const reply = await post(auditor, item.id, { body: 'Sunday night.', parentId: root.id, quote: 'ignored' });
    expect(reply).toMatchObject({ parentId: root.id, quote: null, canResolve: false });
    const list = await (await req(editor, 'GET', `${base}/${item.id}/comments`)).json();
    expect(list.map((c: { id: string }) => c.id)).toEqual([root.id, reply.id]);
    expect(list[0]).toMatchObject({ canEdit: false, canResolve: false });
  });

  it('attaches a reply to a reply to its thread, and refuses a parent of another item (400)', async () => {
    const item = await newItem();
    const other = await newItem('Other');
    const root = await post(editor, item.id, { body: 'Root' });
    const reply = await post(viewer, item.id, { body: 'Reply', parentId: root.id });
    const nested = await post(owner, item.id, { body: 'Reply to the reply', parentId: reply.id });
    expect(nested.parentId).toBe(root.id);
    const res = await req(editor, 'POST', `${base}/${other.id}/comments`, { body: 'x', parentId: root.id });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/parentId/);
  });

  it('refuses an empty, blank or too long body with 400 { message }', async () => {
    const item = await newItem();
    for (const body of [{}, { body: '' }, { body: '   ' }, { body: 'x'.repeat(COMMENT_MAX + 1) }]) {
      const res = await req(editor, 'POST', `${base}/${item.id}/comments`, body);
      expect(res.status).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    }
    expect(await countOf(item.id)).toBe(0);
  });

  it('sanitises the body like item content', async () => {
    const item = await newItem();
    const c = await post(editor, item.id, {
      body: 'Hi <script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1))',
    });
    expect(c.html).not.toMatch(/<script|onerror|javascript:/);
  });

  it('works on documents too', async () => {
    const doc = await createItem(t.db, 'documents', { title: 'Runbook', content: 'x' }, owner.id);
    const c = await post(viewer, doc.id, { body: 'On a document' }, '/api/documents');
    expect((await (await req(viewer, 'GET', `/api/documents/${doc.id}/comments`)).json())[0].id).toBe(c.id);
    expect((await req(viewer, 'GET', `${base}/${doc.id}/comments`)).status).toBe(404);
  });
});

describe('edit and delete: authors their own, admins any', () => {
  it('a viewer cannot edit or delete an editor’s comment (403); the author and an admin can', async () => {
    const item = await newItem();
    const c = await post(editor, item.id, { body: 'First' });
    expect((await req(viewer, 'PUT', `/api/comments/${c.id}`, { body: 'Hacked' })).status).toBe(403);
    expect((await req(viewer, 'DELETE', `/api/comments/${c.id}`)).status).toBe(403);
    const edited = await req(editor, 'PUT', `/api/comments/${c.id}`, { body: 'Second' });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ body: 'Second', html: '<p>Second</p>\n' });
    expect((await req(admin, 'PUT', `/api/comments/${c.id}`, { body: 'Moderated' })).status).toBe(200);
    expect((await req(editor, 'PUT', `/api/comments/${c.id}`, { body: '' })).status).toBe(400);
    const mine = await post(viewer, item.id, { body: 'Mine' });
    expect((await req(viewer, 'DELETE', `/api/comments/${mine.id}`)).status).toBe(200);
    expect((await req(admin, 'DELETE', `/api/comments/${c.id}`)).status).toBe(200);
    expect(await (await req(editor, 'GET', `${base}/${item.id}/comments`)).json()).toEqual([]);
    expect((await req(editor, 'PUT', `/api/comments/${c.id}`, { body: 'gone' })).status).toBe(404);
  });

  it('keeps commentCount in step, counting the replies a deleted root takes with it; the item’s updated time stays', async () => {
    const item = await newItem();
    const before = (await (await req(owner, 'GET', `${base}/${item.id}`)).json()).updatedAt;
    const a = await post(editor, item.id, { body: 'A' });
    await post(viewer, item.id, { body: 'A1', parentId: a.id });
    await post(owner, item.id, { body: 'A2', parentId: a.id });
    const b = await post(viewer, item.id, { body: 'B' });
    await req(owner, 'POST', `/api/comments/${b.id}/resolve`);
    const answer = await (await req(owner, 'GET', `${base}/${item.id}`)).json();
    expect(answer.commentCount).toBe(4);
    expect(answer.updatedAt).toBe(before);
    const listed = await (await req(owner, 'GET', `${base}?q=${encodeURIComponent(item.title)}`)).json();
    expect(listed.find((i: { id: string }) => i.id === item.id).commentCount).toBe(4);
    expect((await req(editor, 'DELETE', `/api/comments/${a.id}`)).status).toBe(200);
    expect(await countOf(item.id)).toBe(1);
    const left = await (await req(owner, 'GET', `${base}/${item.id}/comments`)).json();
    expect(left.map((c: { id: string }) => c.id)).toEqual([b.id]);
    expect((await (await req(owner, 'GET', `${base}/${item.id}`)).json()).updatedAt).toBe(before);
  });
});

describe('resolve and reopen: the thread’s author, the item’s owner, admins', () => {
  it('the owner resolves and reopens a viewer’s thread; another reader cannot (403); a reply is not resolved (400)', async () => {
    const item = await newItem();
    const c = await post(viewer, item.id, { body: 'Typo in step 2' });
    const reply = await post(editor, item.id, { body: 'Fixed', parentId: c.id });
    expect((await req(editor, 'POST', `/api/comments/${c.id}/resolve`)).status).toBe(403);
    expect((await req(viewer, 'POST', `/api/comments/${reply.id}/resolve`)).status).toBe(400);
    const resolved = await req(owner, 'POST', `/api/comments/${c.id}/resolve`);
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toMatchObject({ resolvedBy: { id: owner.id } });
    const list = await (await req(viewer, 'GET', `${base}/${item.id}/comments`)).json();
    expect(list[0].resolvedAt).not.toBeNull();
    const reopened = await (await req(viewer, 'POST', `/api/comments/${c.id}/reopen`)).json();
    expect(reopened.resolvedAt).toBeNull();
    expect((await req(admin, 'POST', `/api/comments/${c.id}/resolve`)).status).toBe(200);
  });
});

describe('a restricted item’s comments are as invisible as the item', () => {
  it('answers 404 on every route to a user who may not read it; a user it is shared with comments', async () => {
    const item = await newItem('Secret');
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    const c = await post(owner, item.id, { body: 'Private thread' });
    for (const who of [outsider, viewer]) {
      expect((await req(who, 'GET', `${base}/${item.id}/comments`)).status).toBe(404);
      expect((await req(who, 'POST', `${base}/${item.id}/comments`, { body: 'x' })).status).toBe(404);
      expect((await req(who, 'PUT', `/api/comments/${c.id}`, { body: 'x' })).status).toBe(404);
      expect((await req(who, 'DELETE', `/api/comments/${c.id}`)).status).toBe(404);
      expect((await req(who, 'POST', `/api/comments/${c.id}/resolve`)).status).toBe(404);
      expect((await req(who, 'POST', `/api/comments/${c.id}/reopen`)).status).toBe(404);
    }
    expect((await req(admin, 'GET', `${base}/${item.id}/comments`)).status).toBe(200);
    await t.db
      .insert(documentShares)
      .values({ documentId: item.id, sharedWithUserId: viewer.id, permission: 'read', sharedByUserId: owner.id });
    expect((await req(viewer, 'GET', `${base}/${item.id}/comments`)).status).toBe(200);
    await post(viewer, item.id, { body: 'Shared with me', parentId: c.id });
  });

  it('answers 404 for a deleted item’s comments and for unknown ids', async () => {
    const item = await newItem();
    const c = await post(editor, item.id, { body: 'Soon gone' });
    await t.db.update(documents).set({ deletedAt: new Date() }).where(eq(documents.id, item.id));
    expect((await req(editor, 'GET', `${base}/${item.id}/comments`)).status).toBe(404);
    expect((await req(editor, 'PUT', `/api/comments/${c.id}`, { body: 'x' })).status).toBe(404);
    expect((await req(editor, 'DELETE', '/api/comments/not-a-uuid')).status).toBe(404);
  });
});

describe('mentions and watchers', () => {
  it('tells mentioned readers (not the author, not who may not read the item) and shows names', async () => {
    const item = await newItem('Mention me');
    const c = await post(editor, item.id, {
      body: 'cc @vera@example.com and @ed@example.com, also @nobody@example.com.',
    });
    expect(c.html).toContain('@Vera Viewer');
    expect(c.html).not.toContain('vera@example.com</a>');
    expect(c.html).not.toContain('>vera@example.com');
    const [note] = (await notesOf(viewer.id)).filter((n) => n.commentId === c.id);
    expect(note).toMatchObject({
      kind: 'mention',
      actorId: editor.id,
      documentId: item.id,
      link: `/knowledge-base/${item.id}#comment-${c.id}`,
      text: 'Ed Itor mentioned you on Mention me',
    });
    expect((await notesOf(editor.id)).filter((n) => n.commentId === c.id)).toEqual([]);
  });

  it('does not tell a mentioned user who may not read the restricted item', async () => {
    const item = await newItem('Restricted mention');
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    const c = await post(owner, item.id, { body: '@otto@example.com @root@example.com look' });
    expect((await notesOf(outsider.id)).filter((n) => n.commentId === c.id)).toEqual([]);
    expect((await notesOf(admin.id)).filter((n) => n.commentId === c.id && n.kind === 'mention')).toHaveLength(1);
  });

  it('an edit tells only the newly mentioned', async () => {
    const item = await newItem('Edit mentions');
    const c = await post(editor, item.id, { body: 'Hi @vera@example.com' });
    await req(editor, 'PUT', `/api/comments/${c.id}`, { body: 'Hi @vera@example.com and @otto@example.com' });
    const mentions = async (u: TestUser) =>
      (await notesOf(u.id)).filter((n) => n.commentId === c.id && n.kind === 'mention');
    expect(await mentions(viewer)).toHaveLength(1);
    expect(await mentions(outsider)).toHaveLength(1);
  });

  it('makes the commenter a watcher and tells the item’s watchers, never the commenter', async () => {
    const item = await newItem('Watched');
    const first = await post(viewer, item.id, { body: 'First' });
    const watching = await t.db.select().from(documentWatchers).where(eq(documentWatchers.documentId, item.id));
    expect(watching.map((w) => w.userId)).toContain(viewer.id);
    expect((await notesOf(viewer.id)).filter((n) => n.commentId === first.id)).toEqual([]);
    const reply = await post(editor, item.id, { body: 'Answer', parentId: first.id });
    const [told] = (await notesOf(viewer.id)).filter((n) => n.commentId === reply.id);
    expect(told).toMatchObject({
      kind: 'comment',
      text: 'Ed Itor replied on Watched',
      link: `/knowledge-base/${item.id}#comment-${reply.id}`,
    });
  });
});

describe('audit', () => {
  it('records created, updated, resolved, reopened and deleted events', async () => {
    const item = await newItem();
    const c = await post(editor, item.id, { body: 'Audited' });
    await req(editor, 'PUT', `/api/comments/${c.id}`, { body: 'Audited again' });
    await req(editor, 'POST', `/api/comments/${c.id}/resolve`);
    await req(editor, 'POST', `/api/comments/${c.id}/reopen`);
    await req(editor, 'DELETE', `/api/comments/${c.id}`);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entityType, 'knowledge_item'),
          eq(auditLog.entityId, item.id),
          sql`${auditLog.action} like 'comment.%'`,
        ),
      );
    expect(rows.map((r) => r.action).sort()).toEqual(
      ['comment.created', 'comment.deleted', 'comment.reopened', 'comment.resolved', 'comment.updated'].sort(),
    );
    // Each names the comment and belongs to the item's trail (its Activity page).
    expect(rows.every((r) => r.actorId === editor.id && (r.details as { commentId?: string }).commentId === c.id)).toBe(
      true,
    );
  });
});

describe('rate limit', () => {
  it('refuses the comment after the limit with 429 { message }; other people still comment', async () => {
    const item = await newItem('Busy thread');
    const chatty = await createSignedInUser(t.db, { role: 'viewer' });
    for (let i = 0; i < COMMENTS_PER_TEN_MINUTES.limit; i++) {
      expect((await req(chatty, 'POST', `${base}/${item.id}/comments`, { body: `Note ${i}` })).status).toBe(201);
    }
    const refused = await req(chatty, 'POST', `${base}/${item.id}/comments`, { body: 'One more' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'Too many comments in a short time. Try again in a few minutes.',
    );
    expect((await req(editor, 'POST', `${base}/${item.id}/comments`, { body: 'Still open to others' })).status).toBe(
      201,
    );
  });
});
