import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, inArray, isNull, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOUND_PARALLEL } from '../../src/alerts/deliver';
import { runAlerts } from '../../src/alerts/service';
import { alertDeliveries, alerts, mailOutbox, servers } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { addServer, addServers, statusChange, statusChanges } from './support';
import { startWebhookReceiver } from './webhook-receiver';

/**
 * Alert storms: many servers down at once under one rule are one message per rule, kind and recipient (webhook,
 * e-mail) naming the first 20 and counting the rest; webhooks go out a bounded number at a time; GET /api/alerts
 * answers at most the newest 500.
 */
let t: TestContext;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
let admin: TestUser;
let ada: TestUser;
const logger = createLogger('silent');
const deps = () => ({ db: t.db, config: t.config, logger });
const STORM = 250;

async function rule(body: Record<string, unknown>) {
  const res = await t.app.request('/api/admin/alert-rules', jsonRequest('POST', body, admin.cookie));
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).id as string;
}

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  t = await createTestApp({ ALERT_WEBHOOK_HOSTS: '127.0.0.1' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  ada = await createSignedInUser(t.db, { role: 'viewer', email: 'ada@example.com', firstName: 'Ada' });
});
afterAll(async () => {
  await hooks?.close();
  await t?.close();
});

const deliveryStatuses = async (ruleId: string) =>
  (
    await t.db
      .select({ status: alertDeliveries.status, n: sql<number>`count(*)::int` })
      .from(alertDeliveries)
      .innerJoin(alerts, eq(alerts.id, alertDeliveries.alertId))
      .where(eq(alerts.ruleId, ruleId))
      .groupBy(alertDeliveries.status)
  ).map((r) => [r.status, Number(r.n)]);

describe('a storm', () => {
  it(`${STORM} servers down at once: one Slack post and one e-mail listing 20 and "and 230 more"; one recovery post`, async () => {
    const slackRule = await rule({
      name: 'storm slack',
      teamOwner: 'storm',
      channel: 'webhook',
      webhookUrl: hooks.url('/storm'),
      webhookFormat: 'slack',
      repeatMinutes: 10_080,
    });
    const mailRule = await rule({
      name: 'storm mail',
      teamOwner: 'storm',
      channel: 'email',
      userIds: [ada.id],
      repeatMinutes: 10_080,
    });
    const fleet = await addServers(t, STORM, 'storm');
    const ids = fleet.map((s) => s.id);
    await statusChanges(t, ids, 'online', 'offline', new Date());

    const run = await runAlerts(deps());
    expect(run).toMatchObject({ sent: 2 * STORM, failed: 0, retried: 0, messages: 2 });
    expect(await deliveryStatuses(slackRule)).toEqual([['sent', STORM]]);
    expect(await deliveryStatuses(mailRule)).toEqual([['sent', STORM]]);

    const posts = hooks.at('/storm');
    expect(posts).toHaveLength(1);
    const lines = (posts[0].body as { text: string }).text.split('\n');
    expect(lines[0]).toBe(`:red_circle: ${STORM} servers are offline`);
    expect(lines.filter((l) => l.startsWith('• '))).toHaveLength(20);
    expect(lines[1]).toContain(`|${fleet[0].name}> (${fleet[0].ipAddress}, production) <http://localhost:3000/alerts/`);
    expect(lines.at(-1)).toBe(`and ${STORM - 20} more`);

    const mails = await t.db.select().from(mailOutbox).where(like(mailOutbox.dedupeKey, 'alert:batch:%'));
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['ada@example.com', `Ops Hub alert: ${STORM} servers are offline`],
    ]);
    expect(mails[0].text).toContain(`- ${fleet[0].name} (${fleet[0].ipAddress}, production), offline since`);
    expect(mails[0].text).toContain(`and ${STORM - 20} more`);

    expect(await runAlerts(deps())).toMatchObject({ sent: 0, messages: 0 });
    expect(hooks.at('/storm')).toHaveLength(1);

    await statusChanges(t, ids, 'offline', 'online', new Date());
    expect(await runAlerts(deps())).toMatchObject({ sent: 2 * STORM, messages: 2 });
    expect(hooks.at('/storm')).toHaveLength(2);
    expect((hooks.at('/storm')[1].body as { text: string }).text).toMatch(
      new RegExp(`^:large_green_circle: ${STORM} servers are back\\n`),
    );
  });

  it('two runners at once, each with its parallel senders, still send one storm as one message per rule', async () => {
    const path = '/storm-twice';
    for (const round of [1, 2, 3]) {
      const team = `storm-twice-${round}`;
      await rule({
        name: team,
        teamOwner: team,
        channel: 'webhook',
        webhookUrl: hooks.url(path),
        repeatMinutes: 10_080,
      });
      await rule({ name: `${team} mail`, teamOwner: team, channel: 'email', userIds: [ada.id], repeatMinutes: 10_080 });
      const ids = (await addServers(t, STORM, team)).map((s) => s.id);
      await statusChanges(t, ids, 'online', 'offline', new Date());
      const runs = await Promise.all([runAlerts(deps()), runAlerts(deps())]);
      expect(runs[0].sent + runs[1].sent).toBe(2 * STORM);
      expect(runs[0].messages + runs[1].messages, `round ${round}`).toBe(2);
      expect(hooks.at(path)).toHaveLength(round);
    }
  });

  it(`sends at most ${OUTBOUND_PARALLEL} webhooks at a time`, async () => {
    const rules = 3 * OUTBOUND_PARALLEL;
    let inFlight = 0;
    let most = 0;
    let seen = 0;
    const held: ServerResponse[] = [];
    // Holds each post until OUTBOUND_PARALLEL are waiting (or the last one came): more than that at once never is.
    const receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        inFlight++;
        seen++;
        most = Math.max(most, inFlight);
        held.push(res);
        if (held.length === OUTBOUND_PARALLEL || seen === rules) {
          for (const r of held.splice(0)) {
            inFlight--;
            r.end('ok');
          }
        }
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/parallel`;
    try {
      for (let i = 0; i < rules; i++) {
        await rule({
          name: `p${i}`,
          teamOwner: `parallel-${i}`,
          channel: 'webhook',
          webhookUrl: url,
          repeatMinutes: 10_080,
        });
        const server = await addServer(t, { teamOwner: `parallel-${i}` });
        await statusChange(t, server.id, 'online', 'offline', new Date());
      }
      expect(await runAlerts(deps())).toMatchObject({ sent: rules, messages: rules });
      expect(seen).toBe(rules);
      expect(most).toBe(OUTBOUND_PARALLEL);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});

describe('GET /api/alerts', () => {
  it('answers the newest 500 open alerts, newest first', async () => {
    const offRule = await rule({
      name: 'bulk (off)',
      channel: 'email',
      userIds: [ada.id],
      repeatMinutes: 60,
      enabled: false,
    });
    const bulk = await addServers(t, 520, 'bulk');
    const base = Date.parse('2026-01-01T00:00:00Z');
    await t.db
      .insert(alerts)
      .values(bulk.map((s, i) => ({ serverId: s.id, ruleId: offRule, openedAt: new Date(base + i * 60_000) })));
    await t.db
      .update(servers)
      .set({ status: 'offline' })
      .where(
        inArray(
          servers.id,
          bulk.map((s) => s.id),
        ),
      );
    const open = await t.db.select({ id: alerts.id }).from(alerts).where(isNull(alerts.closedAt));
    expect(open.length).toBeGreaterThan(500);

    const res = await t.app.request('/api/alerts', jsonRequest('GET', undefined, ada.cookie));
    expect(res.status).toBe(200);
    const list = (await res.json()) as { openedAt: string; serverId: string }[];
    expect(list).toHaveLength(500);
    const newest = await t.db
      .select({ openedAt: alerts.openedAt })
      .from(alerts)
      .where(and(isNull(alerts.closedAt)))
      .orderBy(sql`${alerts.openedAt} desc`)
      .limit(1);
    expect(list[0].openedAt).toBe(newest[0].openedAt.toISOString());
    const times = list.map((a) => Date.parse(a.openedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});
