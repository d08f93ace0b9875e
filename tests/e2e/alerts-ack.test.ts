import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alerts/service';
import { hashPassword } from '../../src/auth/password';
import { mailOutbox, users } from '../../src/db/schema';
import { like } from 'drizzle-orm';
import { hasBrowser, sharedBrowser } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';
import { addServer, alertsOf, statusChange } from '../alerts/support';

/**
 * The alert e-mail's link in Chromium: signed out, it asks for sign-in and comes back to the alert, which shows the
 * server and an Acknowledge button; the plain form acknowledges it (no more reminders).
 */
const PASSWORD = 'correct horse battery staple';
let app: RunningApp;
let browser: Browser;

describe.skipIf(!hasBrowser)('acknowledging an alert from its e-mail link in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('link → sign in → the alert → Acknowledge → acknowledged, and the e-mail carried that link', async () => {
    const admin = await createSignedInUser(app.db, { role: 'admin' });
    const [oncall] = await app.db
      .insert(users)
      .values({
        email: 'oncall@example.com',
        firstName: 'Olga',
        password: await hashPassword(PASSWORD),
        role: 'viewer',
        isEmailVerified: true,
        accountStatus: 'active',
      })
      .returning();
    const made = await fetch(`${app.url}/api/admin/alert-rules`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: app.url, Cookie: admin.cookie },
      body: JSON.stringify({ name: 'on-call', channel: 'email', userIds: [oncall.id], repeatMinutes: 15 }),
    });
    expect(made.status).toBe(201);
    const server = await addServer(app);
    await statusChange(app, server.id, 'online', 'offline', new Date());
    await runAlerts({ db: app.db, config: app.config, logger: app.deps.logger });
    const [alert] = await alertsOf(app, server.id);
    const [mail] = await app.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.dedupeKey, `alert:${alert.id}:%`));
    const link = `${app.url}/alerts/${alert.id}/ack`;
    expect(mail.text).toContain(link);

    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(link);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('Email', { exact: true }).fill('oncall@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(link);

    await page.getByRole('heading', { name: `Alert: ${server.name} is offline` }).waitFor();
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.waitForURL(`${link}?done=1`);
    await page.getByText('Alert acknowledged: no more reminders.').waitFor();
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);

    const [acked] = await alertsOf(app, server.id);
    expect(acked.acknowledgedBy).toBe(oncall.id);
    expect(acked.nextRepeatAt).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });
});
