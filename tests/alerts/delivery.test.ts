import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alerts/service';
import { alertDeliveries, alertRules, mailOutbox, servers, userPreferences } from '../../src/db/schema';
import { parseCidrList } from '../../src/http/cidr-list';
import { createLogger } from '../../src/http/logger';
import { deliverDueMail } from '../../src/mail/deliver';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { startMailbox, type Mailbox } from '../helpers/mailbox';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { secondWorkerDatabase } from '../jobs/support';
import { addServer, alertsOf, deliveriesOf, statusChange } from './support';
import { startWebhookReceiver } from './webhook-receiver';

/**
 * The delivery queue end to end on loopback: e-mail through the outbox to a real SMTP listener exactly once (the job
 * twice, two runners at once), webhooks in the Slack and Teams shapes, retries with backoff, never a second send
 * of a webhook that may have arrived.
 */
let t: TestContext;
let mailbox: Mailbox;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
let admin: TestUser;
let ada: TestUser;
const logger = createLogger('silent');
const deps = () => ({ db: t.db, config: t.config, logger });
const later = (ms: number) => new Date(Date.now() + ms);

async function rule(body: Record<string, unknown>) {
  const res = await t.app.request('/api/admin/alert-rules', jsonRequest('POST', body, admin.cookie));
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).id as string;
}

/** A server of its own team, a rule for that team, and the server going offline: the rule's alert. */
async function downUnder(ruleBody: Record<string, unknown>) {
  const team = `team-${Math.random().toString(36).slice(2, 8)}`;
  // Reminders once a week: the hours these tests move the clock on bring only retries, no repeat.
  await rule({ name: team, teamOwner: team, repeatMinutes: 10_080, ...ruleBody });
  const server = await addServer(t, { teamOwner: team });
  await statusChange(t, server.id, 'online', 'offline', new Date());
  const [alert] = await alertsOf(t, server.id);
  return { server, alert };
}

beforeAll(async () => {
  mailbox = await startMailbox();
  hooks = await startWebhookReceiver();
  t = await createTestApp({ SMTP_URL: mailbox.url, ALERT_WEBHOOK_HOSTS: '127.0.0.1' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  ada = await createSignedInUser(t.db, { role: 'viewer', email: 'ada@example.com', firstName: 'Ada' });
  // Ada switched Email notifications off: a rule naming her is an explicit subscription and reaches her anyway.
  await t.db.insert(userPreferences).values({ userId: ada.id, emailNotifications: false, timezone: 'UTC' });
});
afterAll(async () => {
  await hooks?.close();
  await mailbox?.close();
  await t?.close();
});

const alertMails = (subject: RegExp) =>
  mailbox.messages.filter((m) => m.to.includes('ada@example.com') && subject.test(m.raw));

describe('e-mail', () => {
  it('reaches the SMTP listener once, however often the job runs', async () => {
    const { server, alert } = await downUnder({ channel: 'email', userIds: [ada.id] });
    expect((await runAlerts(deps())).sent).toBe(1);
    expect((await runAlerts(deps())).sent).toBe(0);
    const [queued] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `alert:${alert.id}:opened:0:${ada.id}`));
    expect(queued.subject).toBe(`Ops Hub alert: ${server.name} is offline`);
    expect(queued.text).toContain(`http://localhost:3000/alerts/${alert.id}/ack`);
    await deliverDueMail({ db: t.db, config: t.config, logger });
    await deliverDueMail({ db: t.db, config: t.config, logger });
    expect(alertMails(new RegExp(`${server.name} is offline`))).toHaveLength(1);
    const [d] = await deliveriesOf(t, alert.id);
    expect(d).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('two runners at once queue each message once', async () => {
    const { server, alert } = await downUnder({ channel: 'email', userIds: [ada.id, admin.id] });
    const second = t.database.pool ? secondWorkerDatabase(t.database) : t.database;
    try {
      const runs = await Promise.all([runAlerts(deps()), runAlerts({ db: second.db, config: t.config, logger })]);
      expect(runs[0].sent + runs[1].sent).toBe(2);
    } finally {
      if (second !== t.database) await second.close();
    }
    await Promise.all([
      deliverDueMail({ db: t.db, config: t.config, logger }),
      deliverDueMail({ db: t.db, config: t.config, logger }),
    ]);
    expect(alertMails(new RegExp(`${server.name} is offline`))).toHaveLength(1);
    expect((await deliveriesOf(t, alert.id)).map((d) => d.status)).toEqual(['sent', 'sent']);
  });
});

describe('webhooks', () => {
  it('posts a Slack-shaped and a Teams-shaped body; a generic JSON body names the event', async () => {
    const slack = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/slack'), webhookFormat: 'slack' });
    const teams = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/teams'), webhookFormat: 'teams' });
    const json = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/json') });
    await runAlerts(deps());

    const [s] = hooks.at('/slack');
    expect(Object.keys(s.body as object)).toEqual(['text']);
    expect((s.body as { text: string }).text).toContain(`${slack.server.name} is offline`);
    expect((s.body as { text: string }).text).toContain(
      `<http://localhost:3000/alerts/${slack.alert.id}/ack|Acknowledge>`,
    );

    const [m] = hooks.at('/teams');
    expect(m.body).toMatchObject({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      title: `${teams.server.name.replaceAll('-', '\\-')} is offline`,
      potentialAction: expect.arrayContaining([
        {
          '@type': 'OpenUri',
          name: 'Acknowledge',
          targets: [{ os: 'default', uri: `http://localhost:3000/alerts/${teams.alert.id}/ack` }],
        },
      ]),
    });

    const [j] = hooks.at('/json');
    expect(j.body).toEqual({
      event: 'alert.opened',
      server: {
        id: json.server.id,
        name: json.server.name,
        address: json.server.ipAddress,
        environment: 'production',
        status: 'offline',
      },
      status: 'offline',
      openedAt: json.alert.openedAt.toISOString(),
      ackUrl: `http://localhost:3000/alerts/${json.alert.id}/ack`,
      repeat: 0,
    });
    for (const a of [slack, teams, json]) expect((await deliveriesOf(t, a.alert.id))[0].status).toBe('sent');
  });

  it('escapes server fields: no Slack mention or link, no Teams Markdown link or emphasis from a server name', async () => {
    const slack = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/slack-evil'), webhookFormat: 'slack' });
    const teams = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/teams-evil'), webhookFormat: 'teams' });
    const evil = (n: number) =>
      `evil${n} <!channel> <https://evil.example|click> *bold* [x](https://evil.example) & co`;
    await t.db
      .update(servers)
      .set({ name: evil(1), environment: 'production' })
      .where(eq(servers.id, slack.server.id));
    await t.db
      .update(servers)
      .set({ name: evil(2), hostname: '[a](https://e.example)' })
      .where(eq(servers.id, teams.server.id));
    await runAlerts(deps());

    const text = (hooks.at('/slack-evil')[0].body as { text: string }).text;
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<https://evil.example|click>');
    expect(text).toContain(
      'evil1 &lt;!channel&gt; &lt;https://evil.example|click&gt; *bold* [x](https://evil.example) &amp; co',
    );
    expect(text).toContain(`<http://localhost:3000/alerts/${slack.alert.id}/ack|Acknowledge>`); // our own link stays

    const card = hooks.at('/teams-evil')[0].body as {
      title: string;
      summary: string;
      sections: { facts: { name: string; value: string }[] }[];
    };
    const escaped =
      'evil2 \\<\\!channel\\> \\<https://evil\\.example\\|click\\> \\*bold\\* \\[x\\]\\(https://evil\\.example\\) \\& co';
    expect(card.title).toBe(`${escaped} is offline`);
    expect(card.sections[0].facts.find((f) => f.name === 'Server')?.value).toBe(escaped);
    expect(card.summary).toBe(`${evil(2)} is offline`); // the notification's plain text, not Markdown
  });

  it('connects only to an address the address policy allows (HEALTH_CHECK_*_CIDRS), names included', async () => {
    const byIp = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/denied') });
    const byName = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/denied-name') });
    await t.db
      .update(alertRules)
      .set({ webhookUrl: hooks.url('/denied-name').replace('127.0.0.1', 'localhost') })
      .where(eq(alertRules.id, byName.alert.ruleId));
    const denied = {
      ...t.config,
      alertWebhookHosts: ['127.0.0.1', 'localhost'],
      health: { ...t.config.health, denyCidrs: parseCidrList('127.0.0.0/8,::1/128') },
    };
    expect(await runAlerts({ db: t.db, config: denied, logger })).toMatchObject({ failed: 2, retried: 0, sent: 0 });
    expect((await deliveriesOf(t, byIp.alert.id))[0].lastError).toMatch(/127\.0\.0\.1 is in a denied network/);
    expect((await deliveriesOf(t, byName.alert.id))[0].lastError).toMatch(/host localhost: Refused: .* denied network/);
    expect(hooks.at('/denied')).toHaveLength(0);
    expect(hooks.at('/denied-name')).toHaveLength(0);
  });

  it('retries a failing webhook with backoff, then delivers it once', async () => {
    hooks.answers.set('/flaky', [500, 503, 200]);
    const { alert } = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/flaky') });
    expect(await runAlerts(deps())).toMatchObject({ sent: 0, retried: 1 });
    let [d] = await deliveriesOf(t, alert.id);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, lastError: 'The webhook answered 500.' });
    const firstWait = d.nextAttemptAt.getTime() - Date.now();
    expect(firstWait).toBeGreaterThan(25_000);
    expect(firstWait).toBeLessThanOrEqual(30_000);

    expect((await runAlerts(deps())).retried).toBe(0); // not due yet
    expect(await runAlerts(deps(), { now: later(31_000) })).toMatchObject({ retried: 1 });
    [d] = await deliveriesOf(t, alert.id);
    const secondWait = d.nextAttemptAt.getTime() - Date.now();
    expect(secondWait).toBeGreaterThan(85_000); // 31 s + 60 s: the wait doubled
    expect(await runAlerts(deps(), { now: later(100_000) })).toMatchObject({ sent: 1 });
    expect(await runAlerts(deps(), { now: later(200_000) })).toMatchObject({ sent: 0 });
    expect(hooks.at('/flaky')).toHaveLength(3);
    [d] = await deliveriesOf(t, alert.id);
    expect(d).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
  });

  it('gives up after 6 attempts; the rules page lists the failure', async () => {
    hooks.answers.set('/down', [502]);
    const { server, alert } = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/down') });
    for (let hour = 0; hour < 8; hour++) await runAlerts(deps(), { now: later(hour * 3_600_000) });
    expect(hooks.at('/down')).toHaveLength(6);
    const [d] = await deliveriesOf(t, alert.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 6, lastError: 'The webhook answered 502.' });
    const page = await (await t.app.request('/admin/alert-rules', { headers: { Cookie: admin.cookie } })).text();
    expect(page).toContain('Failed deliveries');
    expect(page).toContain(server.name);
  });

  it('never sends twice what may have arrived: no answer after sending, or a runner that died mid-send', async () => {
    hooks.answers.set('/hang', ['hang']);
    const { alert } = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/hang') });
    expect(await runAlerts(deps(), { webhookTimeoutMs: 300 })).toMatchObject({ failed: 1, retried: 0 });
    expect((await deliveriesOf(t, alert.id))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    await runAlerts(deps(), { now: later(3_600_000) });
    expect(hooks.at('/hang')).toHaveLength(1);

    // A runner took this one ('sending', leased) and died: after the lease it is failed, not sent.
    const crashed = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/crashed') });
    await t.db
      .update(alertDeliveries)
      .set({ status: 'sending', attempts: 1, lockedUntil: later(60_000) })
      .where(eq(alertDeliveries.alertId, crashed.alert.id));
    await runAlerts(deps());
    expect((await deliveriesOf(t, crashed.alert.id))[0].status).toBe('sending');
    await runAlerts(deps(), { now: later(120_000) });
    expect((await deliveriesOf(t, crashed.alert.id))[0]).toMatchObject({ status: 'failed' });
    expect(hooks.at('/crashed')).toHaveLength(0);
  });

  it('retries a webhook whose host refused the connection (nothing was sent)', async () => {
    const closed = await startWebhookReceiver();
    const url = closed.url('/gone');
    await closed.close();
    const { alert } = await downUnder({ channel: 'webhook', webhookUrl: url });
    expect(await runAlerts(deps())).toMatchObject({ retried: 1 });
    expect((await deliveriesOf(t, alert.id))[0]).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('refuses at send time a host no longer allowed (the configuration changed)', async () => {
    const { alert } = await downUnder({ channel: 'webhook', webhookUrl: hooks.url('/moved') });
    const narrowed = { ...t.config, alertWebhookHosts: ['hooks.slack.com'] };
    expect(await runAlerts({ db: t.db, config: narrowed, logger })).toMatchObject({ failed: 1 });
    expect((await deliveriesOf(t, alert.id))[0].lastError).toMatch(/host 127\.0\.0\.1 is not allowed/);
    expect(hooks.at('/moved')).toHaveLength(0);
  });
});
