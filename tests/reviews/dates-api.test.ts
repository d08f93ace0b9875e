import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents } from '../../src/db/schema';
import { setReviewPolicy } from '../../src/reviews/policy';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Review dates and stale documents (issue 22): the interval, the due date, mark-reviewed and ?review=overdue. */

let t: TestContext;
let editor: TestUser;
let otherEditor: TestUser;
let viewer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  otherEditor = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown, cookie = editor.cookie) =>
  t.app.request(path, jsonRequest(method, body, cookie));
const base = { title: 'Rotate backup keys', content: 'Every quarter.' };
const DAY = 24 * 3600 * 1000;

async function create(path: string, body: Record<string, unknown> = {}, cookie = editor.cookie) {
  const res = await call('POST', path, { ...base, ...body }, cookie);
  expect(res.status).toBe(201);
  return res.json();
}

/** Moves an item's creation (and so its due date) back by `days`, as if it had been written then. */
async function age(id: string, days: number) {
  await t.db.execute(sql`update documents set created_at = created_at - make_interval(days => ${days}::int),
      review_due_at = review_due_at - make_interval(days => ${days}::int) where id = ${id}`);
}

const row = async (id: string) => (await t.db.select().from(documents).where(eq(documents.id, id)))[0];

describe.each([
  ['/api/documents', 'documents'],
  ['/api/knowledge-base', 'knowledge'],
] as const)('%s review dates', (path, _space) => {
  it('sets the interval on create: due = creation + interval; not overdue yet', async () => {
    const item = await create(path, { reviewIntervalDays: 90 });
    expect(item.reviewIntervalDays).toBe(90);
    expect(item.reviewedAt).toBeNull();
    expect(item.needsReview).toBe(false);
    expect(new Date(item.reviewDueAt).getTime() - new Date(item.createdAt).getTime()).toBe(90 * DAY);
  });

  it('has no review date without an interval and no default', async () => {
    const item = await create(path);
    expect(item).toMatchObject({ reviewIntervalDays: null, reviewDueAt: null, needsReview: false });
  });

  it('changes the interval on update (due counted from creation when never reviewed), clears it with null', async () => {
    const item = await create(path, { reviewIntervalDays: 30 });
    await age(item.id, 10);
    const created = new Date((await row(item.id)).createdAt).getTime();
    const res = await call('PUT', `${path}/${item.id}`, { ...base, reviewIntervalDays: 365, version: 1 });
    expect(res.status).toBe(200);
    const updated = await res.json();
    expect(updated.reviewIntervalDays).toBe(365);
    const [log] = await (await call('GET', `${path}/${item.id}/versions`)).json();
    expect(log).toMatchObject({ version: 2, changeLog: 'Changed review interval' });
    expect(new Date(updated.reviewDueAt).getTime() - created).toBe(365 * DAY);
    // An update that leaves it out keeps it.
    const kept = await (await call('PUT', `${path}/${item.id}`, { ...base, title: 'Renamed' })).json();
    expect(kept).toMatchObject({ reviewIntervalDays: 365, reviewDueAt: updated.reviewDueAt });
    const cleared = await (await call('PUT', `${path}/${item.id}`, { ...base, reviewIntervalDays: null })).json();
    expect(cleared).toMatchObject({ reviewIntervalDays: null, reviewDueAt: null, needsReview: false });
  });

  it('refuses an interval that is not a whole number of days from 1 to 3650 (400 with a message)', async () => {
    for (const bad of [0, -5, 3651, 1.5, '90', true]) {
      const res = await call('POST', path, { ...base, reviewIntervalDays: bad });
      expect(res.status, String(bad)).toBe(400);
      expect((await res.json()).message).toMatch(/reviewIntervalDays/);
    }
    const item = await create(path, { reviewIntervalDays: 3650 });
    const res = await call('PUT', `${path}/${item.id}`, { ...base, reviewIntervalDays: 0 });
    expect(res.status).toBe(400);
  });

  it('marks reviewed: reviewedAt now, due = now + interval, version and updatedAt unchanged, audit item.reviewed', async () => {
    const item = await create(path, { reviewIntervalDays: 30 });
    await age(item.id, 40);
    const before = await (await call('GET', `${path}/${item.id}`)).json();
    expect(before.needsReview).toBe(true);
    const res = await call('POST', `${path}/${item.id}/mark-reviewed`);
    expect(res.status).toBe(200);
    const after = await res.json();
    expect(after.needsReview).toBe(false);
    expect(after.version).toBe(before.version);
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(Math.abs(new Date(after.reviewedAt).getTime() - Date.now())).toBeLessThan(60_000);
    expect(new Date(after.reviewDueAt).getTime() - new Date(after.reviewedAt).getTime()).toBe(30 * DAY);
    const events = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'item.reviewed'), eq(auditLog.entityId, item.id)));
    expect(events).toHaveLength(1);
    expect(events[0].actorId).toBe(editor.id);
    // A later interval change counts from the review, not from creation.
    const changed = await (await call('PUT', `${path}/${item.id}`, { ...base, reviewIntervalDays: 10 })).json();
    expect(new Date(changed.reviewDueAt).getTime() - new Date(after.reviewedAt).getTime()).toBe(10 * DAY);
  });

  it('answers 409 to mark-reviewed on an item without a review interval, 404 for an unknown id', async () => {
    const item = await create(path);
    const res = await call('POST', `${path}/${item.id}/mark-reviewed`);
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/no review date/);
    expect((await call('POST', `${path}/3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d/mark-reviewed`)).status).toBe(404);
    expect((await call('POST', `${path}/nope/mark-reviewed`)).status).toBe(404);
  });

  it('lets editors, admins and the owner mark reviewed; a viewer who does not own it gets 403', async () => {
    const item = await create(path, { reviewIntervalDays: 30 });
    expect((await call('POST', `${path}/${item.id}/mark-reviewed`, undefined, viewer.cookie)).status).toBe(403);
    expect((await call('POST', `${path}/${item.id}/mark-reviewed`, undefined, otherEditor.cookie)).status).toBe(200);
    expect((await call('POST', `${path}/${item.id}/mark-reviewed`, undefined, admin.cookie)).status).toBe(200);
    // An owner whose role no longer writes content may still confirm their own item.
    await t.db.update(documents).set({ ownerId: viewer.id }).where(eq(documents.id, item.id));
    expect((await call('POST', `${path}/${item.id}/mark-reviewed`, undefined, viewer.cookie)).status).toBe(200);
    expect((await call('POST', `${path}/${item.id}/mark-reviewed`, undefined, '')).status).toBe(401);
  });

  it('answers 404 to mark-reviewed on a restricted item the user may not read', async () => {
    const item = await create(path, { reviewIntervalDays: 30 });
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    const res = await call('POST', `${path}/${item.id}/mark-reviewed`, undefined, otherEditor.cookie);
    expect(res.status).toBe(404);
    expect((await call('POST', `${path}/${item.id}/mark-reviewed`)).status).toBe(200);
  });

  it('?review=overdue lists only live overdue items the reader may read', async () => {
    const overdue = await create(path, { title: 'Overdue one', reviewIntervalDays: 7 });
    await age(overdue.id, 8);
    const hidden = await create(path, { title: 'Overdue and restricted', reviewIntervalDays: 7 });
    await age(hidden.id, 8);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, hidden.id));
    const deleted = await create(path, { title: 'Overdue but deleted', reviewIntervalDays: 7 });
    await age(deleted.id, 8);
    expect((await call('DELETE', `${path}/${deleted.id}`)).status).toBe(200);
    const fresh = await create(path, { title: 'Not due yet', reviewIntervalDays: 7 });

    const ids = async (cookie: string) =>
      ((await (await call('GET', `${path}?review=overdue`, undefined, cookie)).json()) as { id: string }[]).map(
        (i) => i.id,
      );
    const forOther = await ids(otherEditor.cookie);
    expect(forOther).toContain(overdue.id);
    expect(forOther).not.toContain(hidden.id);
    expect(forOther).not.toContain(deleted.id);
    expect(forOther).not.toContain(fresh.id);
    expect(await ids(editor.cookie)).toContain(hidden.id);
    expect(await ids(admin.cookie)).toContain(hidden.id);
    const all = (await (await call('GET', path)).json()) as { id: string; needsReview: boolean }[];
    expect(all.find((i) => i.id === fresh.id)?.needsReview).toBe(false);
    expect(all.find((i) => i.id === overdue.id)?.needsReview).toBe(true);
    // List answers carry the whole review record, as single-item answers do.
    expect(all.find((i) => i.id === overdue.id)).toMatchObject({
      state: expect.stringMatching(/^(draft|in_review|published)$/),
      reviewIntervalDays: 7,
      reviewDueAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      commentCount: 0,
    });
    expect((await call('GET', `${path}?review=soon`)).status).toBe(400);
  });
});

describe('default review interval per item type', () => {
  it('applies the policy default on create without an interval; an explicit null opts out', async () => {
    await setReviewPolicy(t.db, admin.id, 'intervals', { document: 180, 'work-instruction': 90 });
    const doc = await create('/api/documents');
    expect(doc.reviewIntervalDays).toBe(180);
    const wi = await create('/api/knowledge-base', { templateType: 'work_instruction' });
    expect(wi.reviewIntervalDays).toBe(90);
    const article = await create('/api/knowledge-base');
    expect(article.reviewIntervalDays).toBeNull();
    const optedOut = await create('/api/documents', { reviewIntervalDays: null });
    expect(optedOut).toMatchObject({ reviewIntervalDays: null, reviewDueAt: null });
    const own = await create('/api/documents', { reviewIntervalDays: 14 });
    expect(own.reviewIntervalDays).toBe(14);
    await setReviewPolicy(t.db, admin.id, 'intervals', {});
  });
});
