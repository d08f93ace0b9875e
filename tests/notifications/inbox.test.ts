import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, notifications } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { notifyUsers, UNREAD_CAP } from '../../src/notifications/service';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** The bell's inbox: GET /api/me/notifications, POST /api/me/notifications/read, the page, panel and badge. */
let t: TestContext;
let ada: TestUser;
let bob: TestUser;
let viewer: TestUser;

const req = (who: TestUser, method: string, path: string, body?: unknown) =>
  t.app.request(path, jsonRequest(method, body, who.cookie));
const page = (who: TestUser, path: string, htmx = false) =>
  t.app.request(path, { headers: { Cookie: who.cookie, ...(htmx ? { 'HX-Request': 'true' } : {}) } });

async function tell(who: TestUser, text: string, documentId?: string) {
  await notifyUsers(t.db, {
    userIds: [who.id],
    kind: 'item_changed',
    actorId: null,
    documentId,
    text,
    link: documentId ? `/knowledge-base/${documentId}` : '/notifications',
  });
  // Distinct creation times, so "newest first" is a real order.
  await new Promise((r) => setTimeout(r, 5));
}

const inbox = async (who: TestUser) => (await req(who, 'GET', '/api/me/notifications')).json();

beforeAll(async () => {
  t = await createTestApp();
  ada = await createSignedInUser(t.db, { firstName: 'Ada' });
  bob = await createSignedInUser(t.db, { firstName: 'Bob' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
});
afterAll(() => t.close());

describe('GET /api/me/notifications', () => {
  it('lists only the user’s own, newest first, each with readAt, and the unread count', async () => {
    await tell(ada, 'first');
    await tell(ada, 'second');
    await tell(bob, 'for bob');
    const body = await inbox(ada);
    expect(body.notifications.map((n: { text: string }) => n.text)).toEqual(['second', 'first']);
    expect(body.notifications[0]).toMatchObject({ kind: 'item_changed', readAt: null, link: '/notifications' });
    expect(body.unreadCount).toBe(2);
  });

  it('leaves out notifications about items the user can no longer read, or deleted ones', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Soon secret', content: 'x' }, bob.id);
    const gone = await createItem(t.db, 'knowledge', { title: 'Soon deleted', content: 'x' }, bob.id);
    await tell(viewer, 'about the secret', item.id);
    await tell(viewer, 'about the deleted', gone.id);
    expect((await inbox(viewer)).unreadCount).toBe(2);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    await t.db.update(documents).set({ deletedAt: new Date() }).where(eq(documents.id, gone.id));
    expect(await inbox(viewer)).toEqual({ notifications: [], unreadCount: 0 });
    // The owner of the item still sees theirs.
    await tell(bob, 'owner sees it', item.id);
    expect((await inbox(bob)).notifications.map((n: { text: string }) => n.text)).toContain('owner sees it');
  });

  it('signed out: 401', async () => {
    expect((await t.app.request('/api/me/notifications')).status).toBe(401);
  });
});

describe('POST /api/me/notifications/read', () => {
  it('marks the given ids read; others’ ids are left untouched', async () => {
    const carol = await createSignedInUser(t.db);
    const dave = await createSignedInUser(t.db);
    await tell(carol, 'c1');
    await tell(carol, 'c2');
    await tell(dave, 'd1');
    const [c2, c1] = (await inbox(carol)).notifications;
    const [d1] = (await inbox(dave)).notifications;
    const res = await req(carol, 'POST', '/api/me/notifications/read', { ids: [c1.id, d1.id] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ unreadCount: 1 });
    const after = (await inbox(carol)).notifications;
    expect(after.find((n: { id: string }) => n.id === c1.id).readAt).not.toBeNull();
    expect(after.find((n: { id: string }) => n.id === c2.id).readAt).toBeNull();
    expect((await inbox(dave)).notifications[0].readAt).toBeNull();
  });

  it('marks all read without ids (a viewer too)', async () => {
    await tell(viewer, 'v1');
    await tell(viewer, 'v2');
    const res = await req(viewer, 'POST', '/api/me/notifications/read', {});
    expect(res.status).toBe(200);
    expect((await inbox(viewer)).unreadCount).toBe(0);
    const rows = await t.db.select().from(notifications).where(eq(notifications.userId, viewer.id));
    expect(rows.every((r) => r.readAt)).toBe(true);
  });

  it('answers 400 { message } when ids are not uuids', async () => {
    for (const body of [{ ids: ['nope'] }, { ids: 'all' }, { ids: [42] }]) {
      const res = await req(ada, 'POST', '/api/me/notifications/read', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    }
    expect((await inbox(ada)).unreadCount).toBe(2);
  });
});

describe('the bell: badge, panel, page', () => {
  it('the badge shows the unread count, capped', async () => {
    const erin = await createSignedInUser(t.db);
    expect(await (await page(erin, '/notifications/badge', true)).text()).not.toContain('unread');
    await tell(erin, 'one');
    expect(await (await page(erin, '/notifications/badge', true)).text()).toContain(
      '1<span class="visually-hidden"> unread',
    );
    await notifyUsers(t.db, {
      userIds: [erin.id],
      kind: 'item_changed',
      actorId: null,
      text: 'many',
      link: '/notifications',
    });
    const many = Array.from({ length: UNREAD_CAP + 5 }, () => ({
      userId: erin.id,
      kind: 'item_changed' as const,
      text: 'many',
      link: '/notifications',
    }));
    await t.db.insert(notifications).values(many);
    expect((await inbox(erin)).unreadCount).toBe(UNREAD_CAP);
    expect(await (await page(erin, '/notifications/badge', true)).text()).toContain(`${UNREAD_CAP - 1}+`);
  });

  it('the page lists them newest first with unread marked; following one marks it read and opens its target', async () => {
    const frank = await createSignedInUser(t.db);
    const item = await createItem(t.db, 'documents', { title: 'Target', content: 'x' }, ada.id);
    await tell(frank, 'older one');
    await notifyUsers(t.db, {
      userIds: [frank.id],
      kind: 'item_changed',
      actorId: ada.id,
      documentId: item.id,
      text: 'Ada updated "Target"',
      link: `/documents/${item.id}`,
    });
    const html = await (await page(frank, '/notifications')).text();
    expect(html.indexOf('Ada updated &quot;Target&quot;')).toBeLessThan(html.indexOf('older one'));
    expect(html.match(/Unread: /g)).toHaveLength(2);
    expect(html).toContain('Mark all as read');
    const [newest] = (await inbox(frank)).notifications;
    const open = await page(frank, `/notifications/${newest.id}`);
    expect(open.status).toBe(303);
    expect(open.headers.get('location')).toBe(`/documents/${item.id}`);
    expect((await inbox(frank)).unreadCount).toBe(1);
    // Someone else's notification, or no uuid: 404.
    expect((await page(ada, `/notifications/${newest.id}`)).status).toBe(404);
    expect((await page(frank, '/notifications/nope')).status).toBe(404);
    // A stored link that a browser would read as another site (/\\host is //host) opens the list instead.
    await notifyUsers(t.db, {
      userIds: [frank.id],
      kind: 'item_changed',
      actorId: ada.id,
      text: 'Odd link',
      link: '/\\evil.example/',
    });
    const [odd] = (await inbox(frank)).notifications;
    expect(odd.text).toBe('Odd link');
    expect((await page(frank, `/notifications/${odd.id}`)).headers.get('location')).toBe('/notifications');
  });

  it('Mark all as read: back to the page without JavaScript, the panel with its badge to htmx', async () => {
    const gina = await createSignedInUser(t.db, { role: 'auditor' });
    await tell(gina, 'g1');
    const post = (htmx: boolean) =>
      t.app.request('/notifications/read', {
        method: 'POST',
        headers: { Origin: 'http://localhost:3000', Cookie: gina.cookie, ...(htmx ? { 'HX-Request': 'true' } : {}) },
      });
    const panel = await (await page(gina, '/notifications/panel', true)).text();
    expect(panel).toContain('g1');
    expect(panel).toContain('Mark all as read');
    const res = await post(false);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/notifications');
    expect((await inbox(gina)).unreadCount).toBe(0);
    await tell(gina, 'g2');
    const swapped = await (await post(true)).text();
    expect(swapped).toContain('id="notify-badge"');
    expect(swapped).toContain('hx-swap-oob="true"');
    expect(swapped).not.toContain('Mark all as read');
    expect((await inbox(gina)).unreadCount).toBe(0);
  });

  it('every signed-in page carries the bell: a link to /notifications without JavaScript, the panel with it', async () => {
    const html = await (await page(ada, '/knowledge-base')).text();
    expect(html).toContain('<a class="icon-button" href="/notifications">');
    expect(html).toContain('hx-get="/notifications/badge"');
    expect(html).toContain('hx-get="/notifications/panel"');
  });
});
