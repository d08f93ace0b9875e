import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, webhookDeliveries, webhookEndpoints } from '../../src/db/schema';
import { queueWebhookEvent } from '../../src/webhooks/service';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { api, register, SECRET } from './support';

/**
 * The admin API: registration refuses what WEBHOOK_ALLOW_HOSTS does not allow (and link-local and metadata addresses
 * whatever it lists) with 400; the secret is answered once, then only a hint; everyone but admins gets 403.
 */
let t: TestContext;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  // 127.0.0.1 and a network that includes the metadata address: it stays refused.
  t = await createTestApp({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1, 169.254.0.0/16, hooks.example.com, 10.20.0.0/16' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  editor = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
});
afterAll(() => t?.close());

describe('registering a webhook', () => {
  it('answers the secret once; the list shows a hint and never the secret', async () => {
    const made = await register(t, admin, { url: 'http://127.0.0.1:9/hook', events: ['item.created', 'check.failed'] });
    expect(made).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['item.created', 'check.failed'],
      format: 'json',
      secret: SECRET,
      secretHint: `…${SECRET.slice(-4)}`,
      pending: 0,
      failed: 0,
      last: null,
    });
    const list = await api(t, admin, 'GET', '/api/admin/webhooks');
    expect(list.status).toBe(200);
    const listed = list.body.find((e: { id: string }) => e.id === made.id);
    expect(listed).toMatchObject({ url: made.url, secretHint: `…${SECRET.slice(-4)}` });
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, made.id));
    expect(audit).toMatchObject({ action: 'webhook.created', actorId: admin.id });
    expect(JSON.stringify(audit.details)).not.toContain(SECRET);
  });

  it('makes a secret when none is given; "*" stands for every event; Slack and Teams hosts get their body', async () => {
    const made = await register(t, admin, {
      url: 'https://hooks.example.com/x',
      secret: undefined,
      events: ['item.created', '*'],
    });
    expect(made.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(made.events).toEqual(['*']);
    const slack = await register(t, admin, { url: 'https://hooks.example.com/y', format: 'slack' });
    expect(slack.format).toBe('slack');
  });

  it('refuses with 400 and a message: bad input, hosts not listed, plain http off loopback, link-local and metadata', async () => {
    const refused = async (body: Record<string, unknown>, message: RegExp) => {
      const res = await api(t, admin, 'POST', '/api/admin/webhooks', { secret: SECRET, events: ['*'], ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(message);
    };
    await refused({ url: 'not a url' }, /url must be a URL/);
    await refused({ url: 'ftp://127.0.0.1/x' }, /https/);
    // Not a listed name: it might resolve into a listed network, so it is looked up. A .invalid name resolves nowhere
    // (RFC 6761), and in tests no outside name does (tests/helpers/no-outside-dns.ts answers ENOTFOUND at once).
    const invalid = await api(t, admin, 'POST', '/api/admin/webhooks', {
      url: 'https://evil.invalid/x',
      secret: SECRET,
      events: ['*'],
    });
    expect(invalid).toEqual({
      status: 400,
      body: expect.objectContaining({
        message:
          "url's host evil.invalid is not allowed (WEBHOOK_ALLOW_HOSTS: 127.0.0.1, 169.254.0.0/16, hooks.example.com, 10.20.0.0/16): host name not found.",
      }),
    });
    await refused(
      { url: 'https://127.0.0.2/x' },
      /127\.0\.0\.2 is outside the allowed networks \(WEBHOOK_ALLOW_HOSTS\)/,
    );
    await refused(
      { url: 'https://169.254.169.254/latest/meta-data' },
      /link-local and cloud metadata addresses are never called/,
    );
    await refused({ url: 'https://[fe80::1]/x' }, /never called|not allowed|outside/);
    await refused({ url: 'http://10.20.1.1/x' }, /must be an https:\/\/ URL/);
    await refused({ url: 'https://user:pw@hooks.example.com/x' }, /user name or password/);
    await refused({ url: 'http://127.0.0.1/x', events: [] }, /at least one event/);
    await refused({ url: 'http://127.0.0.1/x', events: ['item.exploded'] }, /events must be/);
    await refused({ url: 'http://127.0.0.1/x', format: 'xml' }, /format must be json, slack or teams/);
    await refused({ url: 'http://127.0.0.1/x', secret: 'short' }, /at least 16 characters/);
    // An address inside a listed network is fine over https.
    expect(
      (await api(t, admin, 'POST', '/api/admin/webhooks', { url: 'https://10.20.1.1/x', events: ['*'] })).status,
    ).toBe(201);
  });

  it('with WEBHOOK_ALLOW_HOSTS empty, refuses every URL and says why; with names only, any other host at once', async () => {
    const post = async (allowHosts: string, url: string) => {
      const other = await createTestApp({ WEBHOOK_ALLOW_HOSTS: allowHosts }, t.database);
      const res = await api(other, admin, 'POST', '/api/admin/webhooks', { url, events: ['*'] });
      expect(res.status).toBe(400);
      return res.body.message as string;
    };
    expect(await post('', 'http://127.0.0.1:9/x')).toMatch(/WEBHOOK_ALLOW_HOSTS is empty/);
    expect(await post('hooks.example.com', 'https://evil.invalid/x')).toBe(
      "url's host evil.invalid is not allowed (WEBHOOK_ALLOW_HOSTS: hooks.example.com).",
    );
    expect(await post('hooks.example.com', 'https://10.0.0.1/x')).toMatch(/outside the allowed networks/);
  });
});

describe('what the list shows of secrets', () => {
  it('Slack and Teams URLs (their path is their secret) as host and "…", everywhere an endpoint is shown', async () => {
    const chat = await createTestApp({ WEBHOOK_ALLOW_HOSTS: 'hooks.slack.com, hooks.example.com' }, t.database);
    const slackUrl = 'https://hooks.slack.com/services/T0001/B0001/SLACKPATHSECRET';
    const teamsUrl = 'https://hooks.example.com/workflows/TEAMSPATHSECRET';
    const slack = await register(chat, admin, { url: slackUrl });
    const teams = await register(chat, admin, { url: teamsUrl, format: 'teams' });
    expect(slack).toMatchObject({ url: 'https://hooks.slack.com/…', format: 'slack' });
    expect(teams).toMatchObject({ url: 'https://hooks.example.com/…', format: 'teams' });
    const list = await api(chat, admin, 'GET', '/api/admin/webhooks');
    const pages = await Promise.all(
      ['/admin/webhooks', `/admin/webhooks/${slack.id}`, `/admin/webhooks/${teams.id}`].map(async (path) =>
        (await chat.app.request(path, { headers: { Cookie: admin.cookie } })).text(),
      ),
    );
    for (const shown of [JSON.stringify(list.body), ...pages]) {
      expect(shown).not.toContain('SLACKPATHSECRET');
      expect(shown).not.toContain('TEAMSPATHSECRET');
    }
    expect(pages[1]).toContain('https://hooks.slack.com/…');
    // A JSON receiver's URL is shown whole.
    const json = await register(chat, admin, { url: 'https://hooks.example.com/plain/json' });
    expect(json.url).toBe('https://hooks.example.com/plain/json');
  });

  it('a hint of the secret only when it is at least 24 characters long', async () => {
    const short = await register(t, admin, { url: 'http://127.0.0.1:9/short', secret: 'sixteen-chars-ok' });
    const edge = await register(t, admin, { url: 'http://127.0.0.1:9/edge', secret: 'exactly-23-characters!!' });
    const long = await register(t, admin, { url: 'http://127.0.0.1:9/long', secret: 'twenty-four-characters!!' });
    expect([short.secretHint, edge.secretHint, long.secretHint]).toEqual([null, null, '…rs!!']);
    const page = await (await t.app.request('/admin/webhooks', { headers: { Cookie: admin.cookie } })).text();
    expect(page).toContain('Set (not shown)');
    expect(page).not.toContain('…s-ok');
  });
});

describe('deliveries, re-send and delete', () => {
  it('lists an endpoint’s deliveries; re-send keeps the id and makes it due now; delete takes the queue with it', async () => {
    const made = await register(t, admin, { url: 'http://127.0.0.1:9/list', events: ['user.approved'] });
    await t.db.transaction((tx) => queueWebhookEvent(tx, 'user.approved', { user: { id: 'u1' } }));
    const listed = await api(t, admin, 'GET', `/api/admin/webhooks/${made.id}/deliveries`);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    const [d] = listed.body;
    expect(d).toMatchObject({
      event: 'user.approved',
      status: 'pending',
      attempts: 0,
      payload: { user: { id: 'u1' } },
    });
    await t.db
      .update(webhookDeliveries)
      .set({ status: 'failed', attempts: 12, lastStatus: 500 })
      .where(eq(webhookDeliveries.id, d.id));
    const resent = await api(t, admin, 'POST', `/api/admin/webhook-deliveries/${d.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: d.id, status: 'pending', attempts: 0, lastStatus: 500 });
    expect(new Date(resent.body.nextAttemptAt).getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    await t.db.update(webhookDeliveries).set({ status: 'sending' }).where(eq(webhookDeliveries.id, d.id));
    expect((await api(t, admin, 'POST', `/api/admin/webhook-deliveries/${d.id}/resend`)).status).toBe(409);

    expect((await api(t, admin, 'DELETE', `/api/admin/webhooks/${made.id}`)).status).toBe(204);
    expect(await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d.id))).toEqual([]);
    expect((await api(t, admin, 'DELETE', `/api/admin/webhooks/${made.id}`)).status).toBe(404);
    expect((await api(t, admin, 'GET', `/api/admin/webhooks/${made.id}/deliveries`)).status).toBe(404);
    const unknown = '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d';
    expect((await api(t, admin, 'POST', `/api/admin/webhook-deliveries/${unknown}/resend`)).status).toBe(404);
    expect((await api(t, admin, 'POST', '/api/admin/webhook-deliveries/nope/resend')).status).toBe(400);
  });
});

describe('who may', () => {
  it('answers 403 to editors and viewers and 401 to the signed-out, on every call and page', async () => {
    const [endpoint] = await t.db.select().from(webhookEndpoints).limit(1);
    const some = '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d';
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/webhooks'],
      ['POST', '/api/admin/webhooks', { url: 'http://127.0.0.1:9/x', events: ['*'] }],
      ['DELETE', `/api/admin/webhooks/${endpoint.id}`],
      ['GET', `/api/admin/webhooks/${endpoint.id}/deliveries`],
      ['POST', `/api/admin/webhook-deliveries/${some}/resend`],
    ];
    for (const who of [editor, viewer]) {
      for (const [method, path, body] of calls) {
        const res = await api(t, who, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.message).toBeTruthy();
      }
      const page = await t.app.request('/admin/webhooks', { headers: { Cookie: who.cookie } });
      expect(page.status).toBe(403);
    }
    for (const [method, path, body] of calls) expect((await api(t, null, method, path, body)).status).toBe(401);
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))).toHaveLength(1);
  });
});
