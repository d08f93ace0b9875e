import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents } from '../../src/db/schema';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { runbookCalls } from './helpers';

/**
 * Review flags cleared and shown (issue 23): Mark as reviewed, an edit and a restore clear them; ?review=flagged and
 * ?review=overdue list flagged items; the dashboard's Due for review panel and the read page show them.
 */

let t: TestContext;
let ada: TestUser;
let owner: TestUser;
let viewer: TestUser;
let outsider: TestUser;
const { call, ok, server, linkedItem, form } = runbookCalls(() => t);

beforeAll(async () => {
  t = await createTestApp();
  ada = await createSignedInUser(t.db, { role: 'editor', firstName: 'Ada', lastName: 'Ops' });
  owner = await createSignedInUser(t.db, { role: 'editor', firstName: 'Olive', lastName: 'Owner' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  outsider = await createSignedInUser(t.db, { role: 'editor' });
});
afterAll(() => t.close());

const KB = '/api/knowledge-base';
const flagsOf = async (id: string) => (await ok(owner, 'GET', `${KB}/${id}`)).reviewFlags;

/** A server and an item linked to it, flagged by a change of the server's IP address. */
async function flaggedItem(name: string, title: string, extra: Record<string, unknown> = {}) {
  const s = await server(ada, name);
  const item = await linkedItem(owner, s.id, title, extra);
  await ok(ada, 'PUT', `/api/servers/${s.id}`, form(s, { ipAddress: '127.0.2.2' }));
  expect(await flagsOf(item.id)).toHaveLength(1);
  return item;
}

const page = async (path: string, who: TestUser, headers: Record<string, string> = {}) => {
  const res = await t.app.request(path, { headers: { Cookie: who.cookie, ...headers } });
  expect(res.status, path).toBe(200);
  return res.text();
};

const postForm = (path: string, who: TestUser, headers: Record<string, string> = {}) =>
  t.app.request(path, {
    method: 'POST',
    headers: {
      Origin: TEST_ORIGIN,
      Cookie: who.cookie,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: '',
  });

describe('clearing flags', () => {
  it('Mark as reviewed clears them (with item.reviewed); a reader who may not mark it leaves them', async () => {
    const item = await flaggedItem('rev-1', 'Reviewed runbook', { reviewIntervalDays: 30 });
    expect((await call(viewer, 'POST', `${KB}/${item.id}/mark-reviewed`)).status).toBe(403);
    expect(await flagsOf(item.id)).toHaveLength(1);
    const after = await ok(owner, 'POST', `${KB}/${item.id}/mark-reviewed`);
    expect(after).toMatchObject({ reviewFlags: [], needsReview: false });
    expect(await flagsOf(item.id)).toEqual([]);
    const [event] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'item.reviewed'), eq(auditLog.entityId, item.id)));
    expect(event.details).toMatchObject({ flagsCleared: 1 });
  });

  it('an item with flags but no review interval may be marked reviewed (that is the review); then 409 again', async () => {
    const item = await flaggedItem('rev-2', 'Undated runbook');
    expect(item.reviewIntervalDays).toBeNull();
    const after = await ok(owner, 'POST', `${KB}/${item.id}/mark-reviewed`);
    expect(after).toMatchObject({ reviewFlags: [], needsReview: false, reviewDueAt: null });
    expect((await call(owner, 'POST', `${KB}/${item.id}/mark-reviewed`)).status).toBe(409);
  });

  it('saving the item clears them', async () => {
    const item = await flaggedItem('rev-3', 'Edited runbook');
    const saved = await ok(owner, 'PUT', `${KB}/${item.id}`, { title: 'Edited runbook', content: 'New IP: 127.0.2.2' });
    expect(saved.reviewFlags).toEqual([]);
    expect(await flagsOf(item.id)).toEqual([]);
  });

  it('a draft waiting for approval leaves them on the published text; publishing it after approval clears them', async () => {
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    await ok(admin, 'PUT', '/api/admin/review-policy', { 'work-instruction': 1 });
    try {
      const s = await server(ada, 'rev-approve');
      const item = await linkedItem(owner, s.id, 'Approved runbook', { templateType: 'work_instruction' });
      await ok(owner, 'POST', `${KB}/${item.id}/review-requests`, { reviewerIds: [ada.id] });
      await ok(ada, 'POST', `${KB}/${item.id}/reviews`, { decision: 'approve' });
      expect((await ok(owner, 'GET', `${KB}/${item.id}`)).state).toBe('published');
      await ok(ada, 'PUT', `/api/servers/${s.id}`, form(s, { ipAddress: '127.0.2.9' }));
      const draft = await ok(owner, 'PUT', `${KB}/${item.id}`, { title: 'Approved runbook', content: 'IP 127.0.2.9' });
      expect(draft.publishedVersion).toBeLessThan(draft.version);
      expect(await flagsOf(item.id)).toHaveLength(1);
      await ok(owner, 'POST', `${KB}/${item.id}/review-requests`, { reviewerIds: [ada.id] });
      await ok(ada, 'POST', `${KB}/${item.id}/reviews`, { decision: 'approve' });
      expect(await flagsOf(item.id)).toEqual([]);
    } finally {
      await ok(admin, 'PUT', '/api/admin/review-policy', { 'work-instruction': 0 });
    }
  });

  it('restoring a version clears them', async () => {
    const s = await server(ada, 'rev-4');
    const item = await linkedItem(owner, s.id, 'Restored runbook');
    await ok(owner, 'PUT', `${KB}/${item.id}`, { title: 'Restored runbook', content: 'Second text' });
    await ok(ada, 'PUT', `/api/servers/${s.id}`, form(s, { network: 'Core' }));
    expect(await flagsOf(item.id)).toHaveLength(1);
    const versions = await ok(owner, 'GET', `${KB}/${item.id}/versions`);
    const first = versions.find((v: { version: number }) => v.version === 1);
    const restored = await ok(owner, 'POST', `${KB}/${item.id}/restore/${first.id}`);
    expect(restored).toMatchObject({ content: 'Restored runbook steps', reviewFlags: [], needsReview: false });
    expect(await flagsOf(item.id)).toEqual([]);
  });
});

describe('lists', () => {
  it('?review=flagged lists only flagged items; ?review=overdue lists flagged and date-overdue ones', async () => {
    const flagged = await flaggedItem('list-1', 'Flagged in list');
    const overdue = await ok(owner, 'POST', KB, { title: 'Overdue by date', content: 'x', reviewIntervalDays: 7 }, 201);
    await t.db.execute(sql`update documents set review_due_at = now() - interval '1 day' where id = ${overdue.id}`);
    await ok(owner, 'POST', KB, { title: 'Nothing due', content: 'x' }, 201);
    const titles = async (review: string) =>
      (await ok(owner, 'GET', `${KB}?review=${review}`)).map((i: { title: string }) => i.title).sort();
    expect(await titles('flagged')).toEqual(['Flagged in list']);
    expect(await titles('overdue')).toEqual(['Flagged in list', 'Overdue by date']);
    expect((await call(owner, 'GET', `${KB}?review=soon`)).status).toBe(400);
    // The list page's filter offers it and lists the same.
    const html = await page('/knowledge-base?review=flagged&view=list', owner);
    expect(html).toMatch(/<option value="flagged" selected="">Server changed<\/option>/);
    expect(html).toContain('Flagged in list');
    expect(html).not.toContain('Overdue by date');
    // Cards and rows say why: "Server changed" beside the date's "Review overdue".
    for (const view of ['grid', 'list']) {
      const overdueList = await page(`/knowledge-base?review=overdue&view=${view}`, owner);
      expect(overdueList.match(/Server changed<\/span>/g), view).toHaveLength(1);
      expect(overdueList.match(/Review overdue<\/span>/g), view).toHaveLength(1);
    }
    await ok(owner, 'POST', `${KB}/${flagged.id}/mark-reviewed`);
    expect(await titles('flagged')).toEqual([]);
  });
});

describe('screens', () => {
  /** The Due for review card's HTML. */
  const panelOf = (html: string) => {
    const start = html.indexOf('Due for review</h2>');
    expect(start).toBeGreaterThan(-1);
    return html.slice(start, html.indexOf('</section>', start));
  };

  it("the dashboard's Due for review panel lists a flagged item (no review date) as Server changed", async () => {
    const item = await flaggedItem('dash-1', 'Flagged on dashboard');
    const secret = await flaggedItem('dash-2', 'Secret flagged runbook');
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, secret.id));
    const panel = panelOf(await page('/', owner));
    expect(panel).toContain('Flagged on dashboard');
    expect(panel).toContain('Server changed');
    expect(panel).toContain(`/knowledge-base/${item.id}/`);
    const theirs = panelOf(await page('/', outsider));
    expect(theirs).toContain('Flagged on dashboard');
    expect(theirs).not.toContain('Secret flagged runbook');
  });

  it('the read page shows what changed, when and by whom, and Mark as reviewed works without JavaScript', async () => {
    const item = await flaggedItem('read-1', 'Flagged on its page');
    const html = await page(`/knowledge-base/${item.id}`, owner);
    expect(html).toContain('id="review-status"');
    expect(html).toContain('Needs review');
    expect(html).toMatch(/read-1&#x27;s IP address changed 127\.0\.1\.1 → 127\.0\.2\.2, \d+ \w+ \d{4} by Ada Ops/);
    expect(html).toContain(`action="/knowledge-base/${item.id}/mark-reviewed"`);
    // A viewer sees the flags, not the button.
    const asViewer = await page(`/knowledge-base/${item.id}`, viewer);
    expect(asViewer).toContain('Needs review');
    expect(asViewer).not.toContain('Mark as reviewed');
    const res = await postForm(`/knowledge-base/${item.id}/mark-reviewed`, owner);
    expect(res.status).toBe(303);
    expect(await flagsOf(item.id)).toEqual([]);
    expect(await page(`/knowledge-base/${item.id}`, owner)).not.toContain('Needs review');
  });

  it('the editor shows the flags its save will clear', async () => {
    const item = await flaggedItem('edit-1', 'Flagged in the editor');
    const html = await page(`/knowledge-base/${item.id}/edit`, owner);
    expect(html).toMatch(/edit-1&#x27;s IP address changed 127\.0\.1\.1 → 127\.0\.2\.2, \d+ \w+ \d{4} by Ada Ops/);
    await ok(owner, 'PUT', `${KB}/${item.id}`, { title: 'Flagged in the editor', content: 'Now 127.0.2.2' });
    expect(await page(`/knowledge-base/${item.id}/edit`, owner)).not.toContain('Needs review');
  });

  it('htmx gets the review line back, without the flags', async () => {
    const item = await flaggedItem('read-2', 'Flagged for htmx', { reviewIntervalDays: 30 });
    const res = await postForm(`/knowledge-base/${item.id}/mark-reviewed`, owner, { 'HX-Request': 'true' });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.startsWith('<div id="review-status"')).toBe(true);
    expect(html).not.toContain('Needs review');
    expect(html).toContain('Review due ');
  });
});
