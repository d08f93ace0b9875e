import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { pushSubscriptions, userPreferences } from '../../src/db/schema';
import { isPushService } from '../../src/notifications/api';
import { PUSH_UNAVAILABLE } from '../../src/settings/views/SettingsPage';
import { createTestApp, jsonRequest, TEST_ORIGIN, testBuildDir, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { browserSubscription } from './push-receiver';

const vapid = webpush.generateVAPIDKeys();
const env = {
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
  VAPID_SUBJECT: 'https://ops.example.com/contact',
  PUSH_SERVICE_HOSTS: 'push.example.net',
};
const manifest = JSON.parse(readFileSync(path.join(testBuildDir, 'manifest.json'), 'utf8'));
const API = '/api/notifications/push-subscription';

let withKeys: TestContext;
let withoutKeys: TestContext;
let user: TestUser;
const page = async (t: TestContext, p = '/settings', cookie = user.cookie) =>
  (await t.app.request(p, { headers: { Cookie: cookie } })).text();
const prefs = async (id = user.id) =>
  (await withKeys.db.select().from(userPreferences).where(eq(userPreferences.userId, id)))[0];
const subsOf = (id: string) => withKeys.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, id));

beforeAll(async () => {
  withKeys = await createTestApp(env);
  withoutKeys = await createTestApp({}, withKeys.database);
  user = await createSignedInUser(withKeys.db, { email: 'push@example.com' });
});
afterAll(() => withKeys.close());

describe('settings page: the Push notifications switch', () => {
  it('without VAPID keys: disabled, says which variables are missing, and ships no push script', async () => {
    const html = await page(withoutKeys);
    expect(html).toMatch(/<input id="settings-pushNotifications"[^>]*disabled=""/);
    expect(html).toContain(PUSH_UNAVAILABLE);
    expect(PUSH_UNAVAILABLE).toMatch(/VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT/);
    expect(html).not.toContain(manifest.scripts.push);
    expect(html).not.toContain('data-vapid-key');
  });

  it('with keys: enabled, carries the public key, and only /settings links the push script', async () => {
    const html = await page(withKeys);
    expect(html).toMatch(new RegExp(`<input id="settings-pushNotifications"[^>]*data-vapid-key="${vapid.publicKey}"`));
    expect(html).not.toMatch(/<input id="settings-pushNotifications"[^>]*disabled/);
    expect(html).toContain(`<script type="module" src="${manifest.scripts.push}"></script>`);
    // Not a form field: Push is on only while a real browser subscription exists.
    expect(html).not.toContain('name="pushNotifications"');
    for (const other of ['/', '/team', '/infrastructure'])
      expect(await page(withKeys, other), other).not.toContain(manifest.scripts.push);
  });

  it('the push script is built alone: small, no React, served with the other hashed files', async () => {
    expect(manifest.scripts.push).toMatch(/^\/static\/build\/push-[A-Z0-9]+\.js$/);
    const meta = JSON.parse(readFileSync(path.join(testBuildDir, 'meta.json'), 'utf8'));
    const out = Object.values(
      meta.outputs as Record<string, { entryPoint?: string; inputs: object; bytes: number }>,
    ).find((o) => o.entryPoint?.endsWith('src/notifications/browser.ts'))!;
    expect(Object.keys(out.inputs).some((i) => i.includes('node_modules'))).toBe(false);
    expect(out.bytes).toBeLessThan(4000);
    const res = await withKeys.app.request(manifest.scripts.push);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('/api/notifications/push-subscription');
  });

  it('serves the service worker at /sw.js (scope: the whole app)', async () => {
    const res = await withKeys.app.request('/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const js = await res.text();
    expect(js).toContain('showNotification');
    expect(js).toContain('notificationclick');
  });
});

describe('/api/notifications/push-subscription', () => {
  const sub = browserSubscription('https://push.example.net/send/abc').json;

  it('needs a signed-in user', async () => {
    expect((await withKeys.app.request(API, jsonRequest('POST', sub))).status).toBe(401);
    expect((await withKeys.app.request(API, jsonRequest('DELETE'))).status).toBe(401);
  });

  it('answers 409 when the server has no VAPID keys', async () => {
    const res = await withoutKeys.app.request(API, jsonRequest('POST', sub, user.cookie));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'push_not_configured' });
  });

  it('takes endpoints of browser push services only (the server posts to them: no internal hosts)', async () => {
    for (const endpoint of [
      'https://127.0.0.1/x',
      'https://intranet.local/x',
      'https://push.example.net.evil.example/x',
      'https://notpush.example.net/x',
    ]) {
      const res = await withKeys.app.request(API, jsonRequest('POST', { ...sub, endpoint }, user.cookie));
      expect(res.status, endpoint).toBe(400);
      expect((await res.json()).message).toBe('endpoint is not a browser push service.');
    }
    expect(await subsOf(user.id)).toEqual([]);
    const defaults = loadConfig({}).pushServiceHosts;
    expect(isPushService('https://fcm.googleapis.com/fcm/send/abc', defaults)).toBe(true);
    expect(isPushService('https://updates.push.services.mozilla.com/wpush/v2/x', defaults)).toBe(true);
    expect(isPushService('https://wns2-par02p.notify.windows.com/w/?token=x', defaults)).toBe(true);
    expect(isPushService('https://web.push.apple.com/QG', defaults)).toBe(true);
    expect(isPushService('https://fcm.googleapis.com.evil.example/x', defaults)).toBe(false);
    expect(isPushService('https://10.1.2.3/x', defaults)).toBe(false);
  });

  it('validates the subscription: https endpoint, a P-256 key and a 16-byte secret', async () => {
    const bad = [
      [{ ...sub, endpoint: 'http://push.example.net/x' }, 'endpoint must be an https:// URL.'],
      [{ ...sub, keys: { ...sub.keys, p256dh: 'abc' } }, 'keys.p256dh must be a P-256 public key (base64url).'],
      [{ endpoint: sub.endpoint }, 'keys are required.'],
    ] as const;
    for (const [body, message] of bad) {
      const res = await withKeys.app.request(API, jsonRequest('POST', body, user.cookie));
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
  });

  it('refuses another site (Origin check)', async () => {
    const res = await withKeys.app.request(API, {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify(sub),
    });
    expect(res.status).toBe(403);
  });

  it('subscribes (switch on), a browser re-subscribing updates its row, and DELETE turns Push off and forgets every browser', async () => {
    const init = jsonRequest('POST', sub, user.cookie);
    const res = await withKeys.app.request(API, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), 'User-Agent': 'TestBrowser/1' },
    });
    expect(res.status).toBe(201);
    expect((await prefs()).pushNotifications).toBe(true);
    expect(await subsOf(user.id)).toMatchObject([
      { endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth, userAgent: 'TestBrowser/1' },
    ]);
    expect(await page(withKeys)).toMatch(/<input id="settings-pushNotifications"[^>]*checked=""/);

    // The same browser, now signed in as someone else, belongs to them.
    const other = await createSignedInUser(withKeys.db);
    expect((await withKeys.app.request(API, jsonRequest('POST', sub, other.cookie))).status).toBe(201);
    expect(await subsOf(user.id)).toEqual([]);
    expect(await subsOf(other.id)).toHaveLength(1);

    expect(
      (
        await withKeys.app.request(
          API,
          jsonRequest('POST', browserSubscription('https://push.example.net/send/second').json, user.cookie),
        )
      ).status,
    ).toBe(201);
    // Saving the notifications form leaves Push alone.
    const form = await withKeys.app.request('/settings/notifications', {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'emailNotifications=on',
    });
    expect(form.status).toBe(303);
    expect((await prefs()).pushNotifications).toBe(true);

    const off = await withKeys.app.request(API, jsonRequest('DELETE', undefined, user.cookie));
    expect(off.status).toBe(200);
    expect((await prefs()).pushNotifications).toBe(false);
    expect(await subsOf(user.id)).toEqual([]);
    expect(await subsOf(other.id)).toHaveLength(1);
  });
});
