import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints } from '../../src/db/schema';
import { queueWebhookEvent } from '../../src/webhooks/service';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** /admin/webhooks without JavaScript: the list, the register form (errors re-rendered), delete, deliveries, re-send. */
let t: TestContext;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
});
afterAll(() => t?.close());

const page = (path: string, cookie = admin.cookie) => t.app.request(path, { headers: { Cookie: cookie } });
const form = (path: string, fields: [string, string][], cookie = admin.cookie) =>
  t.app.request(path, {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

describe('/admin/webhooks', () => {
  it('shows the allowed hosts, a suggested secret, and the admin link', async () => {
    const res = await page('/admin/webhooks');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('No webhooks yet');
    expect(html).toContain('Allowed hosts and networks: 127.0.0.1');
    expect(html).toMatch(/name="secret"[^>]*value="[0-9a-f]{48}"|value="[0-9a-f]{48}"[^>]*name="secret"/);
    expect(html).toContain('href="/admin/webhooks"');
  });

  it('re-renders the form with the problem (400), then registers and lists the endpoint', async () => {
    const bad = await form('/admin/webhooks', [
      ['url', 'https://elsewhere.invalid/x'],
      ['secret', 'a-secret-of-enough-length'],
      ['events', 'item.created'],
    ]);
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain(
      'url&#x27;s host elsewhere.invalid is not allowed (WEBHOOK_ALLOW_HOSTS: 127.0.0.1): host name not found.',
    );
    expect(html).toContain('value="https://elsewhere.invalid/x"');
    // The typed secret is not sent back: the form asks for it again.
    expect(html).not.toContain('a-secret-of-enough-length');
    expect(html).toContain('Type it again: a secret is not sent back.');
    const none = await form('/admin/webhooks', [
      ['url', 'http://127.0.0.1:9/x'],
      ['secret', 'another-typed-secret-here'],
    ]);
    expect(none.status).toBe(400);
    const noneHtml = await none.text();
    expect(noneHtml).toContain('events must name at least one event');
    expect(noneHtml).not.toContain('another-typed-secret-here');

    const ok = await form('/admin/webhooks', [
      ['url', 'http://127.0.0.1:9/page'],
      ['secret', 'a-secret-of-enough-length'],
      ['events', 'item.created'],
      ['events', 'server.deleted'],
      ['format', ''],
    ]);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/admin/webhooks?done=added');
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.url, 'http://127.0.0.1:9/page'));
    expect(row).toMatchObject({ events: ['item.created', 'server.deleted'], format: 'json' });
    const list = await (await page('/admin/webhooks?done=added')).text();
    expect(list).toContain('http://127.0.0.1:9/page');
    expect(list).toContain('item.created, server.deleted');
    expect(list).not.toContain('a-secret-of-enough-length');
  });

  it('a secret left empty is made and shown this once', async () => {
    const res = await form('/admin/webhooks', [
      ['url', 'http://127.0.0.1:9/made'],
      ['secret', ''],
      ['events', '*'],
    ]);
    expect(res.status).toBe(200);
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.url, 'http://127.0.0.1:9/made'));
    expect(await res.text()).toContain(row.secret);
    expect(await (await page('/admin/webhooks')).text()).not.toContain(row.secret);
  });

  it('the deliveries page lists the last answer; Re-send and Delete go back where they belong', async () => {
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.url, 'http://127.0.0.1:9/page'));
    await t.db.transaction((tx) => queueWebhookEvent(tx, 'item.created', { item: { id: 'i1' } }));
    const [d] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, row.id));
    await t.db
      .update(webhookDeliveries)
      .set({ status: 'failed', attempts: 12, lastStatus: 502, lastResponse: 'Bad <gateway>' })
      .where(eq(webhookDeliveries.id, d.id));
    const html = await (await page(`/admin/webhooks/${row.id}`)).text();
    expect(html).toContain(d.id);
    expect(html).toContain('502');
    expect(html).toContain('Bad &lt;gateway&gt;');
    const resent = await form(`/admin/webhook-deliveries/${d.id}/resend`, []);
    expect(resent.status).toBe(303);
    expect(resent.headers.get('location')).toBe(`/admin/webhooks/${row.id}?done=resent`);
    const [after] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d.id));
    expect(after).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await page('/admin/webhooks/3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d')).status).toBe(404);
    expect((await page('/admin/webhooks/nope')).status).toBe(404);

    const deleted = await form(`/admin/webhooks/${row.id}/delete`, []);
    expect(deleted.status).toBe(303);
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.id))).toEqual([]);
  });

  it('is for admins only, and refuses a cross-site form', async () => {
    const editor = await createSignedInUser(t.db, { role: 'editor' });
    expect((await page('/admin/webhooks', editor.cookie)).status).toBe(403);
    expect(
      (
        await form(
          '/admin/webhooks',
          [
            ['url', 'http://127.0.0.1:9/e'],
            ['events', '*'],
          ],
          editor.cookie,
        )
      ).status,
    ).toBe(403);
    expect(await (await page('/', editor.cookie)).text()).not.toContain('href="/admin/webhooks"');
    const cross = await t.app.request('/admin/webhooks', {
      method: 'POST',
      headers: {
        Origin: 'https://evil.example',
        Cookie: admin.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'url=http%3A%2F%2F127.0.0.1%3A9%2Fevil&events=*',
    });
    expect(cross.status).toBe(403);
    expect(
      await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.url, 'http://127.0.0.1:9/evil')),
    ).toEqual([]);
  });
});
