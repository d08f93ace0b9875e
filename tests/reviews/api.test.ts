import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditLog,
  documentShares,
  documents,
  documentVersions,
  notifications,
  reviewRequests,
} from '../../src/db/schema';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { caller } from './helpers';

/** The review and approval workflow's API (issue 22), every rule with its role cases. */
let t: TestContext;
let author: TestUser;
let ada: TestUser;
let bob: TestUser;
let viewer: TestUser;
let admin: TestUser;
const { req, json } = caller(() => t);
const base = '/api/knowledge-base';

type Item = { id: string; version: number; state: string; isPublished: boolean; publishedVersion: number | null };

async function policy(approvals: Record<string, number>) {
  await json(admin, 'PUT', '/api/admin/review-policy', approvals);
}

async function workInstruction(title = 'Rotate TLS certificates', content = 'Step one.', by = author) {
  return json<Item>(by, 'POST', base, { title, content, templateType: 'work_instruction' }, 201);
}

const send = (item: Item, reviewerIds: string[], by = author) =>
  req(by, 'POST', `${base}/${item.id}/review-requests`, { reviewerIds });
const decide = (item: Item, who: TestUser, decision: 'approve' | 'changes', comment?: string) =>
  req(who, 'POST', `${base}/${item.id}/reviews`, { decision, comment });

beforeAll(async () => {
  t = await createTestApp();
  author = await createSignedInUser(t.db, { firstName: 'Ann', lastName: 'Author' });
  ada = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Reviewer' });
  bob = await createSignedInUser(t.db, { firstName: 'Bob', lastName: 'Reviewer' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  admin = await createSignedInUser(t.db, { role: 'admin', firstName: 'Root' });
});
afterAll(() => t.close());
beforeEach(async () => policy({ 'work-instruction': 1 }));

describe('the Published switch and the review rules', () => {
  it('publishes at once when the type needs no approval, as before', async () => {
    await policy({});
    const item = await json<Item>(author, 'POST', base, { title: 'Open', content: 'x', isPublished: true }, 201);
    expect(item).toMatchObject({ state: 'published', isPublished: true, publishedVersion: 1 });
    const next = await json<Item>(author, 'PUT', `${base}/${item.id}`, { title: 'Open', content: 'y', version: 1 });
    expect(next).toMatchObject({ state: 'published', isPublished: true, publishedVersion: 2 });
    const off = await json<Item>(author, 'PUT', `${base}/${item.id}`, {
      title: 'Open',
      content: 'y',
      isPublished: false,
      version: 2,
    });
    expect(off).toMatchObject({ state: 'draft', isPublished: false, publishedVersion: null });
    const publishes = async () =>
      (
        await t.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.entityId, item.id), eq(auditLog.action, 'item.published')))
      ).length;
    // Each publish is recorded once: the create that published, not the save that kept it published.
    expect(await publishes()).toBe(1);
    await json<Item>(author, 'PUT', `${base}/${item.id}`, {
      title: 'Open',
      content: 'y',
      isPublished: true,
      version: 3,
    });
    expect(await publishes()).toBe(2);
  });

  it('refuses the switch with 409 when the type needs approval (admins too), and creates nothing', async () => {
    for (const who of [author, admin]) {
      const res = await req(who, 'POST', base, {
        title: 'Straight to published',
        content: 'x',
        templateType: 'work_instruction',
        isPublished: true,
      });
      expect(res.status).toBe(409);
      expect((await res.json()).message).toBe(
        'Work instructions need 1 approval before they are published. Send it for review.',
      );
    }
    const draft = await workInstruction();
    expect(draft).toMatchObject({ state: 'draft', isPublished: false, publishedVersion: null });
    const res = await req(author, 'PUT', `${base}/${draft.id}`, {
      title: draft.id,
      content: 'x',
      isPublished: true,
      version: 1,
    });
    expect(res.status).toBe(409);
  });

  it('validates the policy: known types, whole numbers 0..5, admins only', async () => {
    expect((await req(admin, 'PUT', '/api/admin/review-policy', { article: 1 })).status).toBe(400);
    expect((await req(admin, 'PUT', '/api/admin/review-policy', { document: 6 })).status).toBe(400);
    expect((await req(admin, 'PUT', '/api/admin/review-policy', { document: 1.5 })).status).toBe(400);
    expect((await req(author, 'PUT', '/api/admin/review-policy', { document: 1 })).status).toBe(403);
    expect((await req(viewer, 'GET', '/api/admin/review-policy')).status).toBe(403);
    expect(await json(admin, 'PUT', '/api/admin/review-policy', { document: 2, 'how-to-guide': 0 })).toEqual({
      document: 2,
    });
    expect(await json(admin, 'GET', '/api/admin/review-policy')).toEqual({ document: 2 });
    expect(await json(admin, 'PUT', '/api/admin/review-intervals', { document: 90, 'knowledge-base': null })).toEqual({
      document: 90,
    });
    expect(await json(admin, 'GET', '/api/admin/review-intervals')).toEqual({ document: 90 });
    expect((await req(admin, 'PUT', '/api/admin/review-intervals', { nonsense: 5 })).status).toBe(400);
    expect((await req(author, 'PUT', '/api/admin/review-intervals', { document: 5 })).status).toBe(403);
  });
});

describe('send for review', () => {
  it('sends the newest revision to reviewers: in review, told in-app, audited', async () => {
    const item = await workInstruction('Patch the hypervisors');
    const sent = await send(item, [ada.id, bob.id]);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ state: 'in_review', isPublished: false });
    const rows = await t.db.select().from(reviewRequests).where(eq(reviewRequests.documentId, item.id));
    expect(rows.map((r) => [r.reviewerId, r.version, r.requestedBy]).sort()).toEqual(
      [
        [ada.id, 1, author.id],
        [bob.id, 1, author.id],
      ].sort(),
    );
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.documentId, item.id), eq(notifications.kind, 'review_requested')));
    expect(told.map((n) => n.userId).sort()).toEqual([ada.id, bob.id].sort());
    expect(told[0].text).toBe('Ann Author asked you to review Patch the hypervisors');
    const events = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'review.requested'), eq(auditLog.entityId, item.id)));
    expect(events).toHaveLength(1);
    const open = await json<{ title: string; requestedBy: string; link: string }[]>(
      ada,
      'GET',
      '/api/me/review-requests',
    );
    expect(open.find((r) => r.title === 'Patch the hypervisors')).toMatchObject({
      requestedBy: 'Ann Author',
      link: expect.stringContaining(item.id),
    });
  });

  it('refuses viewers (403), reviewers who are viewers or the author themselves (400), and unknown items (404)', async () => {
    const item = await workInstruction();
    expect((await send(item, [ada.id], viewer)).status).toBe(403);
    expect((await send(item, [viewer.id])).status).toBe(400);
    expect((await send(item, [author.id])).status).toBe(400);
    expect((await send(item, [])).status).toBe(400);
    // Ada sends Ann's revision to Ann: its author may not review it either.
    expect((await send(item, [author.id], ada)).status).toBe(400);
    const missing = { ...item, id: '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d' };
    expect((await send(missing, [ada.id])).status).toBe(404);
  });

  it('limits review requests per sender (each one reaches mailboxes): 429 with Retry-After', async () => {
    const busy = await createSignedInUser(t.db, { firstName: 'Busy' });
    const item = await workInstruction('Often sent', 'x', busy);
    for (let i = 0; i < 30; i++) expect((await send(item, [ada.id], busy)).status).toBe(200);
    const refused = await send(item, [ada.id], busy);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
  });

  it('keeps a restricted item invisible: 404 for who cannot read it, and it cannot be sent to them', async () => {
    const item = await workInstruction('Secret runbook');
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    expect((await send(item, [ada.id])).status).toBe(400);
    expect((await send(item, [ada.id], bob)).status).toBe(404);
    expect((await decide(item, bob, 'approve')).status).toBe(404);
    expect((await send(item, [admin.id])).status).toBe(200);
    const adaOpen = await json<{ documentId: string }[]>(ada, 'GET', '/api/me/review-requests');
    expect(adaOpen.some((r) => r.documentId === item.id)).toBe(false);
  });
});

describe('decisions', () => {
  it('lets only a requested reviewer decide: viewers 403, others 403, the author cannot approve their own', async () => {
    const item = await workInstruction();
    await send(item, [ada.id]);
    expect((await decide(item, viewer, 'approve')).status).toBe(403);
    expect((await decide(item, bob, 'approve')).status).toBe(403);
    expect((await decide(item, author, 'approve')).status).toBe(403);
    expect((await decide(item, ada, 'changes')).status).toBe(400);
  });

  it('"changes" sends it back to draft with the comment, tells the author; the old request is history', async () => {
    const item = await workInstruction('Backup restore drill');
    await send(item, [ada.id, bob.id]);
    // A reader who watches the item hears of the decision too.
    expect((await req(viewer, 'PUT', `${base}/${item.id}/watch`)).status).toBe(200);
    const res = await decide(item, ada, 'changes', 'Add the rollback step.');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: 'draft', published: false });
    expect((await decide(item, bob, 'approve')).status).toBe(409);
    expect((await decide(item, ada, 'approve')).status).toBe(409);
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.documentId, item.id), eq(notifications.kind, 'review_decided')));
    expect(told.map((n) => [n.userId, n.text]).sort()).toEqual(
      [
        [author.id, 'Ada Reviewer requested changes on Backup restore drill'],
        [viewer.id, 'Ada Reviewer requested changes on Backup restore drill'],
      ].sort(),
    );
    const events = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'review.changes_requested'), eq(auditLog.entityId, item.id)));
    expect(events[0].details).toMatchObject({ version: 1, comment: 'Add the rollback step.' });
    const bobOpen = await json<{ documentId: string }[]>(bob, 'GET', '/api/me/review-requests');
    expect(bobOpen.some((r) => r.documentId === item.id)).toBe(false);
  });

  it('publishes on the approval the policy needs: one version, one item.published; 2 approvals need both', async () => {
    await policy({ 'work-instruction': 2 });
    const item = await workInstruction('Failover the database');
    await send(item, [ada.id, bob.id]);
    const first = await json<Item & { published: boolean }>(ada, 'POST', `${base}/${item.id}/reviews`, {
      decision: 'approve',
    });
    expect(first).toMatchObject({ state: 'in_review', published: false, version: 1 });
    const second = await json<Item & { published: boolean }>(bob, 'POST', `${base}/${item.id}/reviews`, {
      decision: 'approve',
      comment: 'Looks right.',
    });
    expect(second).toMatchObject({ state: 'published', isPublished: true, published: true, version: 2 });
    expect(second.publishedVersion).toBe(2);
    const versions = await t.db.select().from(documentVersions).where(eq(documentVersions.documentId, item.id));
    expect(versions.map((v) => [v.version, v.changeLog])).toEqual([
      [1, 'Created'],
      [2, 'Published after approval by Ada Reviewer and Bob Reviewer (version 1)'],
    ]);
    const published = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'item.published'), eq(auditLog.entityId, item.id)));
    expect(published).toHaveLength(1);
    const approved = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'review.approved'), eq(auditLog.entityId, item.id)));
    expect(approved).toHaveLength(2);
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.documentId, item.id), eq(notifications.kind, 'published')));
    expect(told.map((n) => n.userId)).toContain(author.id);
  });
});

describe('readers and the draft revision', () => {
  async function publishedItem() {
    const item = await workInstruction('Restart the mail relay', 'Published text.');
    await send(item, [ada.id]);
    await decide(item, ada, 'approve');
    return json<Item>(author, 'GET', `${base}/${item.id}`);
  }

  it('readers see the published text while a new draft is written and reviewed; then the new one', async () => {
    const item = await publishedItem();
    expect(item).toMatchObject({ version: 2, publishedVersion: 2, state: 'published' });
    const draft = await json<Item>(author, 'PUT', `${base}/${item.id}`, {
      title: 'Restart the mail relay (v2)',
      content: 'Draft text.',
      isPublished: true,
      version: 2,
    });
    expect(draft).toMatchObject({ version: 3, publishedVersion: 2, state: 'draft', isPublished: false });
    for (const who of [viewer, bob, author]) {
      const seen = await json<Item & { title: string; content: string; latestVersion: number }>(
        who,
        'GET',
        `${base}/${item.id}`,
      );
      expect(seen).toMatchObject({ title: 'Restart the mail relay', content: 'Published text.', version: 2 });
      expect(seen.latestVersion).toBe(3);
    }
    const asDraft = await json<{ content: string }>(author, 'GET', `${base}/${item.id}?revision=draft`);
    expect(asDraft.content).toBe('Draft text.');
    const viewerDraft = await json<{ content: string }>(viewer, 'GET', `${base}/${item.id}?revision=draft`);
    expect(viewerDraft.content).toBe('Published text.');
    const page = await (await req(viewer, 'GET', `/knowledge-base/${item.id}`)).text();
    expect(page).toContain('Published text.');
    expect(page).not.toContain('Draft text.');
    // The published revision is published: spec clients filtering on isPublished keep seeing it.
    const shown = await json<Item>(viewer, 'GET', `${base}/${item.id}`);
    expect(shown).toMatchObject({ state: 'published', isPublished: true });
    // Lists answer the published revision too (what they match a search on is the newest text).
    const listed = await json<Item[]>(viewer, 'GET', base);
    expect(listed.find((i) => i.id === item.id)).toMatchObject({
      title: 'Restart the mail relay',
      content: 'Published text.',
      version: 2,
      isPublished: true,
    });
    // Version History: the draft revision only for those who may edit or review the item.
    const versionsOf = async (who: TestUser) =>
      (await json<{ version: number }[]>(who, 'GET', `${base}/${item.id}/versions`)).map((v) => v.version);
    expect(await versionsOf(viewer)).toEqual([2, 1]);
    expect(await versionsOf(author)).toEqual([3, 2, 1]);

    // A save during review: the stale save is refused (409) and the item goes back to draft.
    await send({ ...item, version: 3 }, [ada.id]);
    expect((await req(author, 'PUT', `${base}/${item.id}`, { title: 'x', content: 'y', version: 2 })).status).toBe(409);
    const saved = await json<Item>(author, 'PUT', `${base}/${item.id}`, {
      title: 'Restart the mail relay (v2)',
      content: 'Draft text, fixed.',
      version: 3,
    });
    expect(saved).toMatchObject({ state: 'draft', version: 4, publishedVersion: 2 });
    expect((await decide(item, ada, 'approve')).status).toBe(409);
    await send(item, [ada.id]);
    await decide(item, ada, 'approve');
    const after = await json<Item & { content: string }>(viewer, 'GET', `${base}/${item.id}`);
    expect(after).toMatchObject({ content: 'Draft text, fixed.', version: 5, publishedVersion: 5, state: 'published' });
  });

  it('a reviewer who may read but not edit a restricted item opens its draft from the request', async () => {
    const item = await publishedItem();
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    await t.db.insert(documentShares).values([
      { documentId: item.id, sharedByUserId: author.id, sharedWithUserId: bob.id, permission: 'read' },
      { documentId: item.id, sharedByUserId: author.id, sharedWithUserId: viewer.id, permission: 'read' },
    ]);
    await json(author, 'PUT', `${base}/${item.id}`, { title: 'Restart the mail relay', content: 'Draft.', version: 2 });
    const sent = await send(item, [bob.id]);
    expect(sent.status, await sent.clone().text()).toBe(200);
    const [request] = await json<{ link: string }[]>(bob, 'GET', '/api/me/review-requests');
    expect(request.link).toMatch(/\?revision=draft$/);
    expect((await json<{ content: string }>(bob, 'GET', `${base}/${item.id}?revision=draft`)).content).toBe('Draft.');
    expect((await json<{ content: string }>(viewer, 'GET', `${base}/${item.id}?revision=draft`)).content).toBe(
      'Published text.',
    );
    const page = await (await req(bob, 'GET', request.link)).text();
    expect(page).toContain('Draft.');
    expect(page).toContain('Request changes');
    expect((await decide(item, bob, 'approve')).status).toBe(200);
  });

  it('Version History names who approved which revision and when', async () => {
    const item = await publishedItem();
    const versions = await json<
      {
        version: number;
        changeLog: string;
        reviews?: { reviewerName: string; decision: string; decidedAt: string }[];
      }[]
    >(viewer, 'GET', `${base}/${item.id}/versions`);
    const reviewed = versions.find((v) => v.version === 1)!;
    expect(reviewed.reviews).toEqual([
      { reviewerName: 'Ada Reviewer', decision: 'approve', comment: null, decidedAt: expect.any(String) },
    ]);
    expect(versions.find((v) => v.version === 2)).toMatchObject({
      changeLog: 'Published after approval by Ada Reviewer (version 1)',
      published: true,
    });
  });
});

describe('two reviewers approving at once', () => {
  it('publish exactly once', async () => {
    const item = await workInstruction('Rotate the API keys');
    await send(item, [ada.id, bob.id]);
    const answers = await Promise.all([decide(item, ada, 'approve'), decide(item, bob, 'approve')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const versions = await t.db.select().from(documentVersions).where(eq(documentVersions.documentId, item.id));
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    const published = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'item.published'), eq(auditLog.entityId, item.id)));
    expect(published).toHaveLength(1);
    const [row] = await t.db.select().from(documents).where(eq(documents.id, item.id));
    expect(row).toMatchObject({ state: 'published', version: 2, publishedVersion: 2, isPublished: true });
  });
});
