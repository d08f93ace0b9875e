import { globalAgent } from 'node:https';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions, servers, userPreferences } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { testScheduler } from '../jobs/support';
import { browserSubscription, decryptPush, selfSignedCert, startPushService, verifyVapid } from './push-receiver';

const vapid = webpush.generateVAPIDKeys();
const env = {
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
  VAPID_SUBJECT: 'mailto:ops@example.com',
  PUSH_SERVICE_HOSTS: '127.0.0.1',
};

let t: TestContext;
let service: Awaited<ReturnType<typeof startPushService>>;
let ada: TestUser;
const listeners: Server[] = [];
const previousCa = globalAgent.options.ca;

/** A TCP port on a loopback address: listening (up) or opened and closed again (down). */
async function port(host: string, up: boolean): Promise<number> {
  const server = createServer((s) => s.destroy());
  await new Promise<void>((r) => server.listen(0, host, r));
  const p = (server.address() as AddressInfo).port;
  if (up) listeners.push(server);
  else await new Promise((r) => server.close(r));
  return p;
}

const subscribe = (body: unknown, cookie = ada.cookie) =>
  t.app.request('/api/notifications/push-subscription', jsonRequest('POST', body, cookie));
const runHealthChecks = () => testScheduler(t.database, { config: t.config }).runNow('health-checks');

beforeAll(async () => {
  const tls = selfSignedCert();
  // Only this test process trusts the stand-in push service's certificate (web-push sends through https.globalAgent).
  globalAgent.options.ca = tls.cert;
  service = await startPushService(tls);
  // About the push, not when a server goes offline: one failed check is enough.
  t = await createTestApp({ ...env, HEALTH_CHECK_FAILURES: '1' });
  ada = await createSignedInUser(t.db, { email: 'ada@example.com' });
});
afterAll(async () => {
  globalAgent.options.ca = previousCa;
  for (const l of listeners) l.close();
  await service?.close();
  await t?.close();
});

describe('Web Push end to end (loopback push service)', () => {
  const browser = () => browserSubscription(`${service.origin}/push/ada-browser`);
  let sub: ReturnType<typeof browserSubscription>;

  it('stores a subscription and turns Push on; a status change sends an encrypted, VAPID-signed push', async () => {
    sub = browser();
    const res = await subscribe(sub.json);
    expect(res.status).toBe(201);
    const [pref] = await t.db.select().from(userPreferences).where(eq(userPreferences.userId, ada.id));
    expect(pref.pushNotifications).toBe(true);

    // Bob subscribed once, then turned Push off: his browser gets nothing.
    const bob = await createSignedInUser(t.db, { email: 'bob@example.com' });
    expect((await subscribe(browserSubscription(`${service.origin}/push/bob`).json, bob.cookie)).status).toBe(201);
    expect(
      (await t.app.request('/api/notifications/push-subscription', jsonRequest('DELETE', undefined, bob.cookie)))
        .status,
    ).toBe(200);

    const [server] = await t.db
      .insert(servers)
      .values({
        name: 'web-push-1',
        ipAddress: '127.0.0.8',
        monitorPort: await port('127.0.0.8', false),
        status: 'online',
        environment: 'production',
      })
      .returning();
    const outcome = await runHealthChecks();
    expect(outcome.message).toMatch(/1 went offline or came back: e-mailed 2 users, pushed to 1 browsers\.$/);

    expect(service.received.map((r) => r.path)).toEqual(['/push/ada-browser']);
    const [push] = service.received;
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers['content-type']).toBe('application/octet-stream');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    const claims = verifyVapid(String(push.headers.authorization), vapid.publicKey);
    expect(claims.aud).toBe(service.origin);
    expect(claims.sub).toBe('mailto:ops@example.com');
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());

    const message = JSON.parse(decryptPush(push.body, sub.ecdh, sub.auth));
    expect(message).toEqual({
      title: 'Ops Hub: web-push-1 is offline',
      body: 'web-push-1 (production): offline',
      url: `${t.config.appUrl}/infrastructure/${server.id}`,
      tag: 'server-status',
    });
  });

  it('deletes a subscription the push service answers 410 for, and sends nothing when nothing changed', async () => {
    const before = service.received.length;
    await runHealthChecks();
    expect(service.received.length).toBe(before);

    service.state.answer = 410;
    await t.db.insert(servers).values({
      name: 'db-push-2',
      ipAddress: '127.0.0.9',
      monitorPort: await port('127.0.0.9', true),
      status: 'offline',
    });
    const outcome = await runHealthChecks();
    expect(outcome.message).toMatch(/pushed to 0 browsers\.$/);
    expect(service.received.length).toBe(before + 1);
    const message = JSON.parse(decryptPush(service.received[before].body, sub.ecdh, sub.auth));
    expect(message.title).toBe('Ops Hub: db-push-2 is back online');
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, ada.id))).toEqual([]);
  });
});
