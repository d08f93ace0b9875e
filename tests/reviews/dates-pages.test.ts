import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Review dates on the screens (issue 22): list filter and badges, the read page's review line, the dashboard panel. */

let t: TestContext;
let editor: TestUser;
let other: TestUser;
let viewer: TestUser;
const ids: Record<string, string> = {};

async function create(path: string, title: string, reviewIntervalDays?: number | null, ageDays = 0) {
  const res = await t.app.request(
    path,
    jsonRequest('POST', { title, content: 'Text.', reviewIntervalDays }, editor.cookie),
  );
  expect(res.status).toBe(201);
  const { id } = await res.json();
  if (ageDays)
    await t.db.execute(sql`update documents set created_at = created_at - make_interval(days => ${ageDays}::int),
        review_due_at = review_due_at - make_interval(days => ${ageDays}::int) where id = ${id}`);
  ids[title] = id;
  return id as string;
}

const page = async (path: string, cookie = editor.cookie, headers: Record<string, string> = {}) => {
  const res = await t.app.request(path, { headers: { Cookie: cookie, ...headers } });
  expect(res.status, path).toBe(200);
  return res.text();
};

const postForm = (path: string, cookie: string, headers: Record<string, string> = {}) =>
  t.app.request(path, {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: '',
  });

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  other = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  await create('/api/knowledge-base', 'Stale runbook', 30, 31);
  await create('/api/knowledge-base', 'Fresh runbook', 30);
  await create('/api/knowledge-base', 'Secret stale runbook', 30, 31);
  await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, ids['Secret stale runbook']));
  await create('/api/knowledge-base', 'Undated article', null);
  await create('/api/documents', 'Stale policy', 10, 11);
  await create('/api/documents', 'Current policy', 10);
});
afterAll(() => t.close());

describe('list screens', () => {
  it('?review=overdue shows only overdue items the reader may read, with the badge, in every view', async () => {
    for (const view of ['grid', 'list', 'category']) {
      const html = await page(`/knowledge-base?review=overdue&view=${view}`, other.cookie);
      expect(html, view).toContain('Stale runbook');
      expect(html, view).not.toContain('Fresh runbook');
      expect(html, view).not.toContain('Secret stale runbook');
      expect(html, view).not.toContain('Undated article');
      if (view !== 'category') expect(html, view).toContain('Review overdue</span>');
    }
    expect(await page('/knowledge-base?review=overdue', editor.cookie)).toContain('Secret stale runbook');
    const docs = await page('/documents?review=overdue', viewer.cookie);
    expect(docs).toContain('Stale policy');
    expect(docs).not.toContain('Current policy');
  });

  it('has the filter in the toolbar (a GET form field: the state is a URL), kept by "Show more" links', async () => {
    const html = await page('/knowledge-base?review=overdue');
    expect(html).toMatch(/<select id="kb-review"[^>]*name="review"/);
    expect(html).toMatch(/<option value="overdue" selected="">Review overdue<\/option>/);
    const all = await page('/knowledge-base');
    expect(all).toContain('Fresh runbook');
    expect(all).toMatch(/<option value="" selected="">Any review date<\/option>/);
    // A badge only on the overdue card.
    expect(all.match(/Review overdue<\/span>/g)?.length).toBe(2);
    // An unknown value is ignored on the page (every item), never an error.
    expect(await page('/knowledge-base?review=soon')).toContain('Fresh runbook');
  });

  it('answers the htmx fragment for the filter', async () => {
    const html = await page('/knowledge-base?review=overdue', other.cookie, {
      'HX-Request': 'true',
      'HX-Target': 'kb-results',
    });
    expect(html).not.toContain('<html');
    expect(html).toContain('Stale runbook');
    expect(html).not.toContain('Fresh runbook');
  });
});

describe('read page', () => {
  const readPath = (title: string, base = '/knowledge-base') => `${base}/${ids[title]}`;

  it('shows "Review overdue" and Mark as reviewed to an editor; the badge without the button to a viewer', async () => {
    const html = await page(readPath('Stale runbook'));
    expect(html).toContain('id="review-status"');
    expect(html).toContain('Review overdue');
    expect(html).toContain('Review every 30 days');
    expect(html).toContain(`action="/knowledge-base/${ids['Stale runbook']}/mark-reviewed"`);
    expect(html).toContain('Mark as reviewed');
    const asViewer = await page(readPath('Stale runbook'), viewer.cookie);
    expect(asViewer).toContain('Review overdue');
    expect(asViewer).not.toContain('Mark as reviewed');
    expect(await page(readPath('Undated article'))).not.toContain('id="review-status"');
  });

  it('offers Mark as reviewed to an owner whose role does not edit, on the page and after the swap', async () => {
    const id = await create('/api/documents', 'Owned by a viewer', 10, 11);
    await t.db.update(documents).set({ ownerId: viewer.id }).where(eq(documents.id, id));
    expect(await page(`/documents/${id}`, viewer.cookie)).toContain('Mark as reviewed');
    const res = await postForm(`/documents/${id}/mark-reviewed`, viewer.cookie, { 'HX-Request': 'true' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Mark as reviewed');
  });

  it('shows "Review due {date}" in the reader\'s timezone when not yet due', async () => {
    const html = await page(readPath('Fresh runbook'));
    const [row] = await t.db.select().from(documents).where(eq(documents.id, ids['Fresh runbook']));
    const date = new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeZone: 'Australia/Sydney' }).format(
      row.reviewDueAt!,
    );
    expect(html).toContain(`Review due ${date}`);
    expect(html).not.toContain('Review overdue');
  });

  it('marks reviewed without JavaScript (303 back to the page, which no longer says overdue)', async () => {
    const id = await create('/api/documents', 'Form reviewed policy', 10, 11);
    expect(await page(`/documents/${id}`)).toContain('Review overdue');
    const res = await postForm(`/documents/${id}/mark-reviewed`, editor.cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/documents/${id}/form-reviewed-policy`);
    const after = await page(`/documents/${id}`);
    expect(after).not.toContain('Review overdue');
    expect(after).toContain('Review due ');
    expect(after).toContain('last reviewed');
  });

  it('answers htmx with the review line alone and a toast; refuses readers and hides restricted items', async () => {
    const id = ids['Stale runbook'];
    const res = await postForm(`/knowledge-base/${id}/mark-reviewed`, editor.cookie, { 'HX-Request': 'true' });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.startsWith('<div id="review-status"')).toBe(true);
    expect(html).toContain('Review due ');
    expect(html).toContain('Mark as reviewed');
    expect(res.headers.get('HX-Trigger')).toContain('Marked as reviewed');
    expect((await postForm(`/knowledge-base/${id}/mark-reviewed`, viewer.cookie)).status).toBe(403);
    const secret = ids['Secret stale runbook'];
    expect((await postForm(`/knowledge-base/${secret}/mark-reviewed`, other.cookie)).status).toBe(404);
  });
});

/**
 * The panel's query (src/dashboard/due-for-review.ts) measured on PostgreSQL 15 with 100,000 documents, 20,000 of them
 * with a review date and 10,000 overdue, 5% restricted, for a viewer: EXPLAIN ANALYZE shows an Index Scan Backward on
 * documents_review_due_idx stopping after its 50 candidates (52 buffers), 0.43 ms. The overdue list's first page
 * (?review=overdue) is 0.2 ms (documents_space_updated_idx), its total 19 ms (bitmap AND of the two indexes).
 */
describe('dashboard', () => {
  /** The Due for review card's HTML. */
  const panelOf = (html: string) => {
    const start = html.indexOf('Due for review</h2>');
    expect(start).toBeGreaterThan(-1);
    return html.slice(start, html.indexOf('</section>', start));
  };

  it('lists overdue and soon-due items the reader may read, with a link to the overdue list', async () => {
    const html = panelOf(await page('/', other.cookie));
    expect(html).toContain('Due for review');
    expect(html).toContain('href="/knowledge-base?review=overdue"');
    expect(html).toContain('Stale policy');
    expect(html).not.toContain('Secret stale runbook');
    // Due in 10 days (within 14): listed as due, not overdue.
    expect(html).toContain('Current policy');
    // Due in 30 days: not yet.
    expect(html).not.toContain('Fresh runbook');
  });

  it("puts the reader's own items first, at most five", async () => {
    const mine = await createSignedInUser(t.db, { role: 'editor' });
    const [own] = await t.db
      .insert(documents)
      .values({
        title: 'My old stale note',
        content: 'x',
        space: 'knowledge',
        ownerId: mine.id,
        reviewIntervalDays: 1,
        reviewDueAt: sql`now() - interval '300 days'`,
      })
      .returning({ id: documents.id });
    for (let i = 0; i < 6; i++)
      await t.db.insert(documents).values({
        title: `Someone else's stale note ${i}`,
        content: 'x',
        space: 'documents',
        reviewIntervalDays: 1,
        reviewDueAt: sql`now() - interval '1 day'`,
      });
    const panel = panelOf(await page('/', mine.cookie));
    expect(panel.indexOf('My old stale note')).toBeGreaterThan(-1);
    expect(panel.indexOf('My old stale note')).toBeLessThan(panel.indexOf('Someone else&#x27;s stale note'));
    expect(panel.match(/dash-recent__row/g)?.length).toBe(5);
    expect(own.id).toBeTruthy();
  });

  it('is left out when nothing is due', async () => {
    await t.db.update(documents).set({ reviewDueAt: null, reviewIntervalDays: null });
    expect(await page('/', other.cookie)).not.toContain('Due for review');
  });
});
