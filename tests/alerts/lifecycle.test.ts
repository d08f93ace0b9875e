import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, alerts, servers } from '../../src/db/schema';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { testScheduler } from '../jobs/support';
import { addServer, alertsOf, deliveriesOf, statusChange } from './support';

/**
 * Alerts follow the announced status changes: open per matching rule, once; closed on recovery with the recovery
 * message where wanted; repeated every repeatMinutes (fake clock) until acknowledged in the API or on the page.
 */
let t: TestContext;
let admin: TestUser;
let ada: TestUser;
let bob: TestUser;
let viewer: TestUser;
const rules: Record<string, string> = {};

const T0 = new Date('2026-11-27T10:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const runJob = () => testScheduler(t.database, { config: t.config }).runNow('alerts');

async function rule(body: Record<string, unknown>) {
  const res = await t.app.request('/api/admin/alert-rules', jsonRequest('POST', body, admin.cookie));
  expect(res.status).toBe(201);
  return (await res.json()).id as string;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  ada = await createSignedInUser(t.db, { role: 'viewer', email: 'ada@example.com' });
  bob = await createSignedInUser(t.db, { role: 'editor', email: 'bob@example.com' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  rules.prod = await rule({
    name: 'prod',
    environment: 'production',
    channel: 'email',
    userIds: [ada.id, bob.id],
    repeatMinutes: 30,
  });
  rules.platform = await rule({
    name: 'platform team',
    teamOwner: 'platform',
    channel: 'push',
    userIds: [bob.id],
    repeatMinutes: 10,
    sendRecovery: false,
  });
  rules.disabled = await rule({ name: 'off', channel: 'email', userIds: [ada.id], repeatMinutes: 5, enabled: false });
  rules.staging = await rule({
    name: 'staging',
    environment: 'staging',
    channel: 'email',
    userIds: [ada.id],
    repeatMinutes: 5,
  });
});
afterEach(() => vi.useRealTimers());

/** A status set by hand (an editor's form, metrics): stored, never announced as a round's change. */
const setStatusByHand = (serverId: string, status: 'online' | 'maintenance', at: Date) =>
  t.db.update(servers).set({ status, statusChangedAt: at }).where(eq(servers.id, serverId));
afterAll(() => t.close());

describe('opening and closing alerts with the status changes', () => {
  it('an offline change opens one alert per matching enabled rule and queues its deliveries; a second does not', async () => {
    const server = await addServer(t, { environment: 'production', teamOwner: 'Platform' });
    const other = await addServer(t, { environment: 'development' });
    await statusChange(t, server.id, 'online', 'offline', at(0));
    await statusChange(t, other.id, 'online', 'offline', at(0));

    const open = await alertsOf(t, server.id);
    expect(open.map((a) => a.ruleId).sort()).toEqual([rules.prod, rules.platform].sort());
    expect(await alertsOf(t, other.id)).toEqual([]);
    const prod = open.find((a) => a.ruleId === rules.prod)!;
    expect(prod.openedAt).toEqual(at(0));
    expect(prod.nextRepeatAt).toEqual(at(30));
    const queued = await deliveriesOf(t, prod.id);
    expect(queued.map((d) => [d.kind, d.channel, d.status])).toEqual([
      ['opened', 'email', 'pending'],
      ['opened', 'email', 'pending'],
    ]);
    expect(queued.map((d) => d.dedupeKey).sort()).toEqual(
      [`${prod.id}:opened:0:${ada.id}`, `${prod.id}:opened:0:${bob.id}`].sort(),
    );

    // Still offline, announced again (e.g. back to offline after an unknown): no second alert, no new delivery.
    await statusChange(t, server.id, 'unknown', 'offline', at(3));
    expect(await alertsOf(t, server.id)).toHaveLength(2);
    expect(await deliveriesOf(t, prod.id)).toHaveLength(2);
  });

  it('recovery closes every open alert of the server and queues the recovery only where the rule wants it', async () => {
    const server = await addServer(t, { environment: 'production', teamOwner: 'platform' });
    await statusChange(t, server.id, 'online', 'offline', at(0));
    await statusChange(t, server.id, 'offline', 'warning', at(7));
    const closed = await alertsOf(t, server.id);
    expect(closed).toHaveLength(2);
    for (const a of closed) {
      expect(a.closedAt).toEqual(at(7));
      expect(a.nextRepeatAt).toBeNull();
    }
    const prod = closed.find((a) => a.ruleId === rules.prod)!;
    const platform = closed.find((a) => a.ruleId === rules.platform)!;
    expect((await deliveriesOf(t, prod.id, 'recovered')).map((d) => d.userId).sort()).toEqual([ada.id, bob.id].sort());
    expect(await deliveriesOf(t, platform.id, 'recovered')).toEqual([]);

    // Down again: a new alert (the old one is closed).
    await statusChange(t, server.id, 'warning', 'offline', at(20));
    expect((await alertsOf(t, server.id)).filter((a) => !a.closedAt)).toHaveLength(2);
  });
});

describe('repeats and acknowledgement (fake clock)', () => {
  it('repeats after repeatMinutes, again after another, and stops once acknowledged through the API', async () => {
    const server = await addServer(t, { environment: 'staging' });
    vi.useFakeTimers({ toFake: ['Date'], now: at(0) });
    await statusChange(t, server.id, 'online', 'offline', at(0));
    const [alert] = await alertsOf(t, server.id);

    vi.setSystemTime(at(4));
    expect((await runJob()).message).toMatch(/^Queued 0 repeats/);
    vi.setSystemTime(at(5));
    expect((await runJob()).message).toMatch(/^Queued 1 repeats/);
    expect((await deliveriesOf(t, alert.id, 'repeat')).map((d) => d.dedupeKey)).toEqual([
      `${alert.id}:repeat:1:${ada.id}`,
    ]);
    const [after1] = await alertsOf(t, server.id);
    expect(after1).toMatchObject({ repeats: 1, nextRepeatAt: at(10) });

    vi.setSystemTime(at(9));
    await runJob();
    expect(await deliveriesOf(t, alert.id, 'repeat')).toHaveLength(1);
    vi.setSystemTime(at(10));
    await runJob();
    expect(await deliveriesOf(t, alert.id, 'repeat')).toHaveLength(2);

    const list = await (await t.app.request('/api/alerts', jsonRequest('GET', undefined, viewer.cookie))).json();
    expect(list).toContainEqual({
      id: alert.id,
      serverId: server.id,
      ruleId: rules.staging,
      openedAt: at(0).toISOString(),
      acknowledgedAt: null,
    });

    // A viewer the rule does not name may not; Ada, whom it alerts, may.
    const ack = (cookie: string) =>
      t.app.request(`/api/alerts/${alert.id}/ack`, jsonRequest('POST', undefined, cookie));
    expect((await ack(viewer.cookie)).status).toBe(403);
    vi.setSystemTime(at(12));
    const res = await ack(ada.cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: alert.id, acknowledgedAt: at(12).toISOString() });
    expect((await ack(ada.cookie)).status).toBe(200);
    const events = await t.db.select().from(auditLog).where(eq(auditLog.entityId, alert.id));
    expect(events.map((e) => [e.action, e.actorId])).toEqual([['alert.acknowledged', ada.id]]);

    vi.setSystemTime(at(60));
    await runJob();
    expect(await deliveriesOf(t, alert.id, 'repeat')).toHaveLength(2);
  });

  it('catches up after a long stop with one repeat, not a burst', async () => {
    const server = await addServer(t, { environment: 'staging' });
    vi.useFakeTimers({ toFake: ['Date'], now: at(0) });
    await statusChange(t, server.id, 'online', 'offline', at(0));
    const [alert] = await alertsOf(t, server.id);
    vi.setSystemTime(at(61));
    await runJob();
    await runJob();
    expect(await deliveriesOf(t, alert.id, 'repeat')).toHaveLength(1);
    expect((await alertsOf(t, server.id))[0].nextRepeatAt).toEqual(at(66));
  });

  it('the e-mail link page: sign-in first, then the alert and a confirm button that acknowledges it', async () => {
    const server = await addServer(t, { environment: 'staging' });
    vi.useFakeTimers({ toFake: ['Date'], now: at(0) });
    await statusChange(t, server.id, 'online', 'offline', at(0));
    const [alert] = await alertsOf(t, server.id);
    const path = `/alerts/${alert.id}/ack`;

    const signedOut = await t.app.request(path);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get('location')).toBe(`/login?next=${encodeURIComponent(path)}`);

    const page = await (await t.app.request(path, { headers: { Cookie: bob.cookie } })).text();
    expect(page).toContain(server.name);
    expect(page).toContain(`action="${path}"`);
    expect(page).toContain('data-alert-state="open"');

    // A cross-site form post is refused (the app's origin check): nothing is acknowledged.
    const forged = await t.app.request(path, {
      method: 'POST',
      headers: { Cookie: bob.cookie, Origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect((await alertsOf(t, server.id))[0].acknowledgedAt).toBeNull();

    vi.setSystemTime(at(2));
    const posted = await t.app.request(path, { method: 'POST', headers: { Cookie: bob.cookie, Origin: TEST_ORIGIN } });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`${path}?done=1`);
    const [acked] = await alertsOf(t, server.id);
    expect(acked).toMatchObject({ acknowledgedAt: at(2), acknowledgedBy: bob.id, nextRepeatAt: null });
    const done = await (await t.app.request(`${path}?done=1`, { headers: { Cookie: bob.cookie } })).text();
    expect(done).toContain('data-alert-state="acknowledged"');

    vi.setSystemTime(at(30));
    await runJob();
    expect(await deliveriesOf(t, alert.id, 'repeat')).toEqual([]);
  });

  it('a closed alert cannot be acknowledged (409); an unknown one is 404', async () => {
    const server = await addServer(t, { environment: 'staging' });
    await statusChange(t, server.id, 'online', 'offline', at(0));
    await statusChange(t, server.id, 'offline', 'online', at(1));
    const [alert] = await t.db.select().from(alerts).where(eq(alerts.serverId, server.id));
    const post = (id: string) => t.app.request(`/api/alerts/${id}/ack`, jsonRequest('POST', undefined, bob.cookie));
    expect((await post(alert.id)).status).toBe(409);
    expect((await post('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('a status changed by hand, or a maintenance window, while an alert is open (fake clock)', () => {
  it('maintenance by hand: no reminder, the alert closes at the next run, no recovery message', async () => {
    const server = await addServer(t, { environment: 'staging' });
    vi.useFakeTimers({ toFake: ['Date'], now: at(0) });
    await statusChange(t, server.id, 'online', 'offline', at(0));
    const [alert] = await alertsOf(t, server.id);
    await setStatusByHand(server.id, 'maintenance', at(2));

    for (const m of [5, 10, 60]) {
      vi.setSystemTime(at(m));
      await runJob();
    }
    expect(await deliveriesOf(t, alert.id, 'repeat')).toEqual([]);
    expect((await alertsOf(t, server.id))[0]).toMatchObject({ closedAt: at(5), nextRepeatAt: null });
    expect(await deliveriesOf(t, alert.id, 'recovered')).toEqual([]);
  });

  it('online by hand: the alert closes with the recovery message, reminders stop', async () => {
    const server = await addServer(t, { environment: 'staging' });
    vi.useFakeTimers({ toFake: ['Date'], now: at(0) });
    await statusChange(t, server.id, 'online', 'offline', at(0));
    const [alert] = await alertsOf(t, server.id);
    await setStatusByHand(server.id, 'online', at(3));

    vi.setSystemTime(at(5));
    expect((await runJob()).message).toMatch(/^Queued 0 repeats, closed 1;/);
    vi.setSystemTime(at(30));
    await runJob();
    expect(await deliveriesOf(t, alert.id, 'repeat')).toEqual([]);
    expect((await alertsOf(t, server.id))[0].closedAt).toEqual(at(5));
    expect((await deliveriesOf(t, alert.id, 'recovered')).map((d) => [d.userId, d.status])).toEqual([[ada.id, 'sent']]);

    // The round announcing the same recovery later finds nothing open: no second recovery.
    await statusChange(t, server.id, 'offline', 'online', at(31));
    expect(await deliveriesOf(t, alert.id, 'recovered')).toHaveLength(1);
  });

  it('in a maintenance window while still offline: no reminders and none queued; after it, one reminder', async () => {
    const server = await addServer(t, { environment: 'staging' });
    vi.useFakeTimers({ toFake: ['Date'], now: at(0) });
    await statusChange(t, server.id, 'online', 'offline', at(0));
    const [alert] = await alertsOf(t, server.id);
    const res = await t.app.request(
      '/api/admin/maintenance-windows',
      jsonRequest(
        'POST',
        { name: 'reboot', serverIds: [server.id], startsAt: at(-1).toISOString(), endsAt: at(120).toISOString() },
        bob.cookie,
      ),
    );
    expect(res.status).toBe(201);

    for (const m of [5, 10, 30]) {
      vi.setSystemTime(at(m));
      await runJob();
    }
    expect(await deliveriesOf(t, alert.id, 'repeat')).toEqual([]);
    expect((await alertsOf(t, server.id))[0]).toMatchObject({ closedAt: null, repeats: 0 });

    const deleted = await t.app.request(
      `/api/admin/maintenance-windows/${(await res.json()).id}`,
      jsonRequest('DELETE', undefined, bob.cookie),
    );
    expect(deleted.status).toBe(204);
    vi.setSystemTime(at(31));
    await runJob();
    expect((await deliveriesOf(t, alert.id, 'repeat')).map((d) => d.dedupeKey)).toEqual([
      `${alert.id}:repeat:1:${ada.id}`,
    ]);
  });
});
