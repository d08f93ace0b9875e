import { createServer, globalAgent, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alerts/service';
import { createLogger } from '../../src/http/logger';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { browserSubscription, decryptPush, selfSignedCert, startPushService } from '../notifications/push-receiver';
import { addServer, alertsOf, deliveriesOf, statusChange } from './support';

/** Push alerts through the notifications service to a stand-in push service on loopback (encrypted, VAPID-signed). */
const vapid = webpush.generateVAPIDKeys();
let t: TestContext;
let service: Awaited<ReturnType<typeof startPushService>>;
let tls: ReturnType<typeof selfSignedCert>;
let admin: TestUser;
let ada: TestUser;
let bob: TestUser;
const previousCa = globalAgent.options.ca;

beforeAll(async () => {
  tls = selfSignedCert();
  globalAgent.options.ca = tls.cert;
  service = await startPushService(tls);
  t = await createTestApp({
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:ops@example.com',
    PUSH_SERVICE_HOSTS: '127.0.0.1',
  });
  admin = await createSignedInUser(t.db, { role: 'admin' });
  ada = await createSignedInUser(t.db, { role: 'viewer' });
  bob = await createSignedInUser(t.db, { role: 'viewer' });
});

/** A push service that reads the request and then drops the connection: it may have taken the message. */
async function startDroppingService() {
  const received: string[] = [];
  const server: Server = createServer(tls, (req) => {
    req.resume();
    req.on('end', () => {
      received.push(req.url ?? '');
      req.socket.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, received, close: () => new Promise((r) => server.close(r)) };
}

/** A viewer subscribed at `endpoint`, a push rule for a team of their own, and one of its servers going offline. */
async function pushAlertAt(endpoint: string) {
  const user = await createSignedInUser(t.db, { role: 'viewer' });
  const sub = browserSubscription(endpoint);
  expect(
    (await t.app.request('/api/notifications/push-subscription', jsonRequest('POST', sub.json, user.cookie))).status,
  ).toBe(201);
  const team = `push-${Math.random().toString(36).slice(2, 8)}`;
  const rule = { name: team, channel: 'push', userIds: [user.id], repeatMinutes: 10_080, teamOwner: team };
  expect((await t.app.request('/api/admin/alert-rules', jsonRequest('POST', rule, admin.cookie))).status).toBe(201);
  const server = await addServer(t, { teamOwner: team });
  await statusChange(t, server.id, 'online', 'offline', new Date());
  const [alert] = await alertsOf(t, server.id);
  return alert;
}
afterAll(async () => {
  globalAgent.options.ca = previousCa;
  await service?.close();
  await t?.close();
});

describe('push alerts', () => {
  it('reach each subscribed browser of the recipients once; a recipient without one is a failed delivery', async () => {
    const sub = browserSubscription(`${service.origin}/push/ada`);
    const subscribed = await t.app.request(
      '/api/notifications/push-subscription',
      jsonRequest('POST', sub.json, ada.cookie),
    );
    expect(subscribed.status).toBe(201);
    const res = await t.app.request(
      '/api/admin/alert-rules',
      jsonRequest(
        'POST',
        { name: 'push', channel: 'push', userIds: [ada.id, bob.id], repeatMinutes: 10_080, teamOwner: 'pushers' },
        admin.cookie,
      ),
    );
    expect(res.status).toBe(201);
    const server = await addServer(t, { teamOwner: 'pushers' });
    await statusChange(t, server.id, 'online', 'offline', new Date());
    // The round's own status push goes to opted-in browsers (Ada's): count only the alert's.
    const before = service.received.length;
    const deps = { db: t.db, config: t.config, logger: createLogger('silent') };
    expect(await runAlerts(deps)).toMatchObject({ sent: 1, failed: 1 });
    await runAlerts(deps);

    const pushes = service.received.slice(before).map((p) => JSON.parse(decryptPush(p.body, sub.ecdh, sub.auth)));
    const [alert] = await alertsOf(t, server.id);
    expect(pushes).toEqual([
      {
        title: `Ops Hub: ${server.name} is offline`,
        body: `${server.name} (${server.ipAddress}, production)`,
        url: `http://localhost:3000/alerts/${alert.id}/ack`,
        tag: `alert-${server.id}`,
      },
    ]);
    const byUser = Object.fromEntries((await deliveriesOf(t, alert.id)).map((d) => [d.userId, d]));
    expect(byUser[ada.id]).toMatchObject({ status: 'sent', attempts: 1 });
    expect(byUser[bob.id]).toMatchObject({
      status: 'failed',
      lastError: 'The recipient has no browser subscribed to push.',
    });
  });
});

describe('push alerts that may have arrived are not sent again', () => {
  const deps = () => ({ db: t.db, config: t.config, logger: createLogger('silent') });
  const later = (ms: number) => new Date(Date.now() + ms);

  it('a push service that took the request and dropped the connection: failed, never retried', async () => {
    const dropping = await startDroppingService();
    try {
      const alert = await pushAlertAt(`${dropping.origin}/push/taken`);
      const before = dropping.received.length; // the round's own status push goes there too
      expect(await runAlerts(deps())).toMatchObject({ sent: 0, retried: 0, failed: 1 });
      expect((await deliveriesOf(t, alert.id))[0]).toMatchObject({ status: 'failed', attempts: 1 });
      await runAlerts(deps(), { now: later(3_600_000) });
      expect(dropping.received.length - before).toBe(1);
    } finally {
      await dropping.close();
    }
  });

  it('a push service that refused the connection (nothing sent): retried with backoff', async () => {
    const gone = await startDroppingService();
    await gone.close();
    const alert = await pushAlertAt(`${gone.origin}/push/refused`);
    expect(await runAlerts(deps())).toMatchObject({ sent: 0, retried: 1, failed: 0 });
    expect((await deliveriesOf(t, alert.id))[0]).toMatchObject({ status: 'pending', attempts: 1 });
  });
});
