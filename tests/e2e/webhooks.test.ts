import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookListener, type WebhookListener } from '../../src/webhooks/commands';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';
import { type Receiver, startReceiver } from '../webhooks/receiver';

/**
 * /admin/webhooks in Chromium, as an admin uses it: register a receiver with the secret the form offers, see the
 * delivery an event made (sent, 200, its id), re-send it, and the receiver gets the same id again, signed.
 */
let app: RunningApp;
let browser: Browser;
let hooks: Receiver;
let listener: WebhookListener;

const waitFor = async (what: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!what() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(what()).toBe(true);
};

describe.skipIf(!hasBrowser)('webhooks in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    hooks = await startReceiver();
    app = await startApp({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    // The web process sends deliveries after commit (src/main.ts starts the same listener).
    listener = await startWebhookListener(app.database, { config: app.config, logger: app.deps.logger });
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await listener?.stop();
    await app?.stop();
    await hooks?.close();
  });

  it('register → an event is delivered and listed → Re-send delivers it again under the same id', async () => {
    const admin = await createSignedInUser(app.db, { role: 'admin', firstName: 'Ann' });
    const { page, problems } = await signedInPage(browser, app.url, admin.cookie, {
      viewport: { width: 1366, height: 800 },
    });
    await page.goto(`${app.url}/`);
    await page.locator('a[href="/admin/webhooks"]').first().click();
    await page.waitForURL(`${app.url}/admin/webhooks`);
    await page.getByText('No webhooks yet').waitFor();

    await page.getByLabel('URL', { exact: true }).fill(hooks.url('/ops'));
    const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^[0-9a-f]{48}$/);
    hooks.secrets.set('/ops', secret);
    await page.getByLabel('All events (also those added later)').uncheck();
    await page.getByLabel(/Server created/).check();
    await page.getByLabel('Body', { exact: true }).selectOption('json');
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await page.waitForURL(`${app.url}/admin/webhooks?done=added`);
    await page.locator('#toasts').getByText('Webhook registered').waitFor();
    const row = page.getByRole('row', { name: new RegExp(hooks.url('/ops')) });
    await expect(row.getByText('server.created').count()).resolves.toBe(1);

    // An event: a server is added (through the API, as an agent or a script would).
    const made = await fetch(`${app.url}/api/servers`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: app.url, Cookie: admin.cookie },
      body: JSON.stringify({
        name: 'hooked-web-1',
        ipAddress: '127.0.0.99',
        environment: 'staging',
        status: 'maintenance',
      }),
    });
    expect(made.status).toBe(201);
    await waitFor(() => hooks.at('/ops').length === 1);
    const [first] = hooks.at('/ops');
    expect(first.verified).toBe(true);
    expect(first.body).toMatchObject({ event: 'server.created', data: { server: { name: 'hooked-web-1' } } });
    const id = String(first.headers['x-opshub-delivery']);

    await page.reload();
    await page.getByRole('link', { name: 'Deliveries' }).click();
    const delivery = page.getByRole('row', { name: new RegExp(id) });
    await delivery.getByText('sent', { exact: true }).waitFor();
    await delivery.getByText('200', { exact: true }).waitFor();
    await delivery.getByText('thanks').waitFor();

    await delivery.getByRole('button', { name: /^Re-send server\.created delivery/ }).click();
    await page.locator('#toasts').getByText('Delivery queued again').waitFor();
    await waitFor(() => hooks.at('/ops').length === 2);
    expect(hooks.ids('/ops')).toEqual([id]);
    expect(hooks.at('/ops').every((r) => r.verified)).toBe(true);
    await page.reload();
    await page
      .getByRole('row', { name: new RegExp(id) })
      .getByText('sent', { exact: true })
      .waitFor();
    expect(problems).toEqual([]);
  });
});
