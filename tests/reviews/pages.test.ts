import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { caller } from './helpers';

/** The review workflow's pages without JavaScript: the read page's forms, Review Requests and /admin/review. */
let t: TestContext;
let author: TestUser;
let ada: TestUser;
let viewer: TestUser;
let admin: TestUser;
const { json } = caller(() => t);

const page = async (who: TestUser, path: string) => {
  const res = await t.app.request(path, { headers: { Cookie: who.cookie } });
  return { status: res.status, html: await res.text() };
};
const postForm = (who: TestUser, path: string, fields: [string, string][]) =>
  t.app.request(path, {
    method: 'POST',
    headers: { Cookie: who.cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

beforeAll(async () => {
  t = await createTestApp();
  author = await createSignedInUser(t.db, { firstName: 'Ann', lastName: 'Author' });
  ada = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Reviewer' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  admin = await createSignedInUser(t.db, { role: 'admin', firstName: 'Root' });
  await json(admin, 'PUT', '/api/admin/review-policy', { 'work-instruction': 1 });
});
afterAll(() => t.close());

describe('review forms on the read page', () => {
  it('send for review → approve → published, each a plain form answered by the item page', async () => {
    const item = await json<{ id: string }>(
      author,
      'POST',
      '/api/knowledge-base',
      { title: 'Drain a node', content: 'Cordon it first.', templateType: 'work_instruction' },
      201,
    );
    const path = `/knowledge-base/${item.id}`;
    const before = await page(author, path);
    expect(before.html).toContain('Draft');
    expect(before.html).toContain('Needs 1 approval to publish.');
    expect(before.html).toContain(`value="${ada.id}"`);
    expect(before.html).not.toContain(`value="${author.id}"`);
    expect((await page(viewer, path)).html).not.toContain('review-requests"');
    const editor = await page(author, `${path}/edit`);
    expect(editor.html).toContain(`action="${path}/review-requests"`);

    const sent = await postForm(author, `${path}/review-requests`, [['reviewerIds', ada.id]]);
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toContain(item.id);
    expect((await page(author, path)).html).toContain('In review');

    const list = await page(ada, '/review-requests');
    expect(list.html).toContain('Drain a node');
    expect(list.html).toContain('Ann Author');
    expect((await page(ada, '/review-requests/count')).html).toContain('>1<span');
    expect((await page(viewer, '/review-requests/count')).html).not.toContain('badge');

    const asReviewer = await page(ada, path);
    expect(asReviewer.html).toContain('Approve');
    expect((await page(ada, `${path}/edit`)).html).toContain(`action="${path}/reviews"`);
    expect(asReviewer.html).toContain('Request changes');

    const refused = await postForm(ada, `${path}/reviews`, [['decision', 'changes']]);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('a comment is required');

    const approved = await postForm(ada, `${path}/reviews`, [['decision', 'approve']]);
    expect(approved.status).toBe(303);
    const after = await page(viewer, path);
    expect(after.html).toContain('Published');
    expect(after.html).toContain('v2');
    expect((await page(ada, '/review-requests')).html).toContain('No review requests');
  });

  it('shows readers the published text and editors the note that a draft waits', async () => {
    await json(admin, 'PUT', '/api/admin/review-policy', { 'knowledge-base': 0, 'work-instruction': 0 });
    const item = await json<{ id: string }>(
      author,
      'POST',
      '/api/knowledge-base',
      { title: 'Renew certs', content: 'Old text.', templateType: 'work_instruction', isPublished: true },
      201,
    );
    await json(admin, 'PUT', '/api/admin/review-policy', { 'work-instruction': 1 });
    await json(author, 'PUT', `/api/knowledge-base/${item.id}`, {
      title: 'Renew certs',
      content: 'New text.',
      version: 1,
    });
    const path = `/knowledge-base/${item.id}`;
    const asViewer = await page(viewer, path);
    expect(asViewer.html).toContain('Old text.');
    expect(asViewer.html).not.toContain('A newer draft');
    const asAuthor = await page(author, path);
    expect(asAuthor.html).toContain('Old text.');
    expect(asAuthor.html).toContain('A newer draft (v2) is being written');
    const draft = await page(author, `${path}?revision=draft`);
    expect(draft.html).toContain('New text.');
    expect(draft.html).toContain('You are reading the draft (v2)');
    expect((await page(viewer, `${path}?revision=draft`)).html).toContain('Old text.');
  });
});

describe('/admin/review', () => {
  it('saves both halves from a plain form for admins; others are refused', async () => {
    expect((await page(author, '/admin/review')).status).toBe(403);
    const form = await page(admin, '/admin/review');
    expect(form.html).toContain('Work instructions');
    const saved = await postForm(admin, '/admin/review', [
      ['approvals.document', '2'],
      ['approvals.work-instruction', '1'],
      ['intervals.document', '180'],
      ['intervals.knowledge-base', ''],
    ]);
    expect(saved.status).toBe(303);
    expect(await json(admin, 'GET', '/api/admin/review-policy')).toEqual({ document: 2, 'work-instruction': 1 });
    expect(await json(admin, 'GET', '/api/admin/review-intervals')).toEqual({ document: 180 });
    const bad = await postForm(admin, '/admin/review', [['approvals.document', '9']]);
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Approvals must be a whole number from 0 to 5.');
    expect((await postForm(author, '/admin/review', [['approvals.document', '1']])).status).toBe(403);
    expect((await page(admin, '/')).html).toContain('href="/admin/review"');
    expect((await page(author, '/')).html).toContain('/review-requests/count');
    expect((await page(viewer, '/')).html).not.toContain('/review-requests/count');
  });
});
