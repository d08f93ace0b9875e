import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext } from 'playwright-core';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions, userPreferences } from '../../src/db/schema';
import { hasBrowser, sharedBrowser } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { browserSubscription } from '../notifications/push-receiver';

// Chromium's own push service is on the internet, so no test here lets it subscribe (no permission is granted):
// the push delivery itself is tested end to end against a loopback push service in tests/notifications/push.test.ts.
const vapid = webpush.generateVAPIDKeys();

let app: RunningApp;
let browser: Browser;
let user: TestUser;

async function signedIn(): Promise<BrowserContext> {
  const context = await browser.newContext();
  const [name, value] = user.cookie.split('=');
  await context.addCookies([{ name, value, url: app.url }]);
  return context;
}

describe.skipIf(!hasBrowser)('Push notifications switch in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp({
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.com',
    });
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { email: 'push-browser@example.com' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('loads the push script only on /settings; a refused permission puts the switch back and says why', async () => {
    const context = await signedIn();
    const page = await context.newPage();
    const problems: string[] = [];
    const scripts: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await page.goto(app.url + '/');
    expect(scripts.some((s) => s.includes('/push-'))).toBe(false);
    await page.goto(app.url + '/settings');
    await expect.poll(() => scripts.some((s) => s.includes('/push-'))).toBe(true);

    const toggle = page.getByRole('switch', { name: /Push notifications/ });
    expect(await toggle.isEnabled()).toBe(true);
    await toggle.click();
    await page.getByText('Notifications are not allowed for this site').waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect(await app.db.select().from(pushSubscriptions)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('turning it off tells the server: Push off and every subscription of the user forgotten', async () => {
    const sub = browserSubscription('https://push.example.net/send/old-browser').json;
    await app.db
      .insert(pushSubscriptions)
      .values({ userId: user.id, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth });
    await app.db.insert(userPreferences).values({ userId: user.id, pushNotifications: true });
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(app.url + '/settings');
    const toggle = page.getByRole('switch', { name: /Push notifications/ });
    expect(await toggle.isChecked()).toBe(true);
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/push-'))))
      .toBe(true);
    await toggle.click();
    await page.getByText('Push notifications are off.').waitFor();
    expect(await toggle.isChecked()).toBe(false);
    const [pref] = await app.db.select().from(userPreferences).where(eq(userPreferences.userId, user.id));
    expect(pref.pushNotifications).toBe(false);
    expect(await app.db.select().from(pushSubscriptions)).toEqual([]);
    await context.close();
  });
});
