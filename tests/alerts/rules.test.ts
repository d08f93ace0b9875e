import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertRules, auditLog, users } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Alert rules: the admin API (create, list, delete, validation, who may) and the page's plain forms. Nothing is sent. */
let t: TestContext;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let ada: TestUser;

beforeAll(async () => {
  t = await createTestApp({ ALERT_WEBHOOK_HOSTS: '127.0.0.1,hooks.slack.com,webhook.office.com,alerts.example.com' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  editor = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  ada = await createSignedInUser(t.db, { role: 'viewer', email: 'ada@example.com' });
});
afterAll(() => t.close());

const post = (body: unknown, cookie = admin.cookie) =>
  t.app.request('/api/admin/alert-rules', jsonRequest('POST', body, cookie));
const emailRule = { name: 'Prod on-call', environment: 'production', channel: 'email', repeatMinutes: 30 };

describe('the alert rules API', () => {
  it('creates an e-mail rule with defaults, lists it, audits it', async () => {
    const res = await post({ ...emailRule, userIds: [ada.id], teamOwner: 'Platform' });
    expect(res.status).toBe(201);
    const rule = await res.json();
    expect(rule).toMatchObject({
      name: 'Prod on-call',
      enabled: true,
      environment: 'production',
      teamOwner: 'Platform',
      channel: 'email',
      userIds: [ada.id],
      webhookUrl: null,
      repeatMinutes: 30,
      sendRecovery: true,
    });
    const list = await (
      await t.app.request('/api/admin/alert-rules', jsonRequest('GET', undefined, admin.cookie))
    ).json();
    expect(list.map((r: { id: string }) => r.id)).toContain(rule.id);
    const events = await t.db.select().from(auditLog).where(eq(auditLog.entityId, rule.id));
    expect(events.map((e) => e.action)).toEqual(['alert_rule.created']);
  });

  it('picks the webhook body from the host: Slack, Teams, else generic JSON; an explicit format wins', async () => {
    const make = async (webhookUrl: string, webhookFormat?: string) =>
      (await (await post({ name: 'hook', channel: 'webhook', webhookUrl, webhookFormat, repeatMinutes: 5 })).json())
        .webhookFormat;
    expect(await make('https://hooks.slack.com/services/T0/B0/x')).toBe('slack');
    expect(await make('https://acme.webhook.office.com/webhookb2/x')).toBe('teams');
    expect(await make('https://alerts.example.com/in')).toBe('json');
    expect(await make('https://alerts.example.com/in', 'slack')).toBe('slack');
  });

  it.each([
    [{ ...emailRule, userIds: [] }, 'userIds must name who receives email alerts.'],
    [{ ...emailRule, repeatMinutes: 0 }, 'repeatMinutes must be at least 1.'],
    [{ ...emailRule, channel: 'sms' }, 'channel must be email, push or webhook.'],
    [{ name: 'w', channel: 'webhook', repeatMinutes: 5 }, 'webhookUrl is required for a webhook rule.'],
    [
      { name: '', channel: 'push', userIds: ['00000000-0000-4000-8000-000000000000'], repeatMinutes: 5 },
      'name is required.',
    ],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
  });

  it('refuses a webhook to a host not allowed, and plain http to anything but loopback', async () => {
    for (const [url, message] of [
      ['https://evil.example.net/hook', /host evil\.example\.net is not allowed/],
      ['https://hooks.slack.com.evil.net/x', /is not allowed/],
      ['http://alerts.example.com/in', /must be an https:\/\/ URL/],
      ['ftp://alerts.example.com/in', /must be an https:\/\/ URL/],
    ] as const) {
      const res = await post({ name: 'w', channel: 'webhook', webhookUrl: url, repeatMinutes: 5 });
      expect(res.status, url).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    const loopback = await post({
      name: 'w',
      channel: 'webhook',
      webhookUrl: 'http://127.0.0.1:9/x',
      repeatMinutes: 5,
    });
    expect(loopback.status).toBe(201);
  });

  it('refuses recipients that are unknown or not active', async () => {
    const gone = await createSignedInUser(t.db, { role: 'editor' });
    await t.db.update(users).set({ accountStatus: 'deactivated' }).where(eq(users.id, gone.id));
    for (const id of [gone.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await post({ ...emailRule, userIds: [ada.id, id] });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(`userIds: ${id} is not an active user.`);
    }
  });

  it('deletes a rule (audited); an unknown id is 404, a bad one 400', async () => {
    const { id } = await (await post({ ...emailRule, userIds: [ada.id] })).json();
    const del = (ruleId: string) =>
      t.app.request(`/api/admin/alert-rules/${ruleId}`, jsonRequest('DELETE', undefined, admin.cookie));
    expect((await del(id)).status).toBe(204);
    expect(await t.db.select().from(alertRules).where(eq(alertRules.id, id))).toEqual([]);
    expect((await del(id)).status).toBe(404);
    expect((await del('nope')).status).toBe(400);
    const [event] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'alert_rule.deleted'));
    expect(event.entityId).toBe(id);
  });

  it('is for admins only: editors and viewers 403, signed out 401', async () => {
    for (const who of [editor, viewer]) {
      expect((await t.app.request('/api/admin/alert-rules', jsonRequest('GET', undefined, who.cookie))).status).toBe(
        403,
      );
      expect((await post({ ...emailRule, userIds: [ada.id] }, who.cookie)).status).toBe(403);
    }
    expect((await t.app.request('/api/admin/alert-rules', jsonRequest('GET'))).status).toBe(401);
  });
});

describe('the alert rules page (plain forms)', () => {
  const form = (path: string, fields: [string, string][], cookie = admin.cookie) =>
    t.app.request(path, {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  it('adds a rule from the form (two recipients, boxes unticked = off) and deletes it', async () => {
    const bob = await createSignedInUser(t.db, { role: 'editor', email: 'bob@example.com' });
    const res = await form('/admin/alert-rules', [
      ['name', 'Staging from the form'],
      ['environment', 'staging'],
      ['channel', 'email'],
      ['userIds', ada.id],
      ['userIds', bob.id],
      ['repeatMinutes', '15'],
      ['enabled', 'on'],
    ]);
    expect(res.status).toBe(303);
    const [rule] = await t.db.select().from(alertRules).where(eq(alertRules.name, 'Staging from the form'));
    expect(rule).toMatchObject({ environment: 'staging', repeatMinutes: 15, enabled: true, sendRecovery: false });
    expect(rule.userIds.sort()).toEqual([ada.id, bob.id].sort());

    const page = await (await t.app.request('/admin/alert-rules', { headers: { Cookie: admin.cookie } })).text();
    expect(page).toContain('Staging from the form');
    expect(page).toContain('bob@example.com');

    expect((await form(`/admin/alert-rules/${rule.id}/delete`, [])).status).toBe(303);
    expect(await t.db.select().from(alertRules).where(eq(alertRules.id, rule.id))).toEqual([]);
  });

  it('shows what is wrong beside the field (400) and keeps what was typed', async () => {
    const res = await form('/admin/alert-rules', [
      ['name', 'Bad hook'],
      ['channel', 'webhook'],
      ['webhookUrl', 'https://evil.example.net/x'],
      ['repeatMinutes', '5'],
    ]);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('is not allowed');
    expect(html).toContain('value="Bad hook"');
  });

  it('is not shown to editors; signed out goes to sign-in', async () => {
    expect((await t.app.request('/admin/alert-rules', { headers: { Cookie: editor.cookie } })).status).toBe(403);
    const out = await t.app.request('/admin/alert-rules');
    expect(out.headers.get('location')).toBe('/login?next=%2Fadmin%2Falert-rules');
  });
});
