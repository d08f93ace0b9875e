import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let user: TestUser;

/** What a script outside the browser does with the token: GET /api/auth/user with Authorization: Bearer. */
const whoAmI = (token: string) => fetch(`${app.url}/api/auth/user`, { headers: { Authorization: `Bearer ${token}` } });

describe.skipIf(!hasBrowser)('API tokens in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Grace', lastName: 'Hopper' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('creates a token in Settings, copies it, uses it from a script, and revokes it', async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, user.cookie);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await page.goto(`${app.url}/settings`);
    await page.getByText('You have no API tokens.').waitFor();
    await page.getByLabel('Token name').fill('laptop script');
    await page.getByLabel('Scope').selectOption('read');
    await page.getByLabel('Expires').selectOption('30');
    await page.getByRole('button', { name: 'Create Token' }).click();

    await page.getByRole('heading', { name: 'API Token Created' }).waitFor();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const token = await page.evaluate(() => navigator.clipboard.readText());
    expect(token).toMatch(/^ohp_/);
    expect(await page.locator('#new-api-token').innerText()).toBe(token);

    const me = await whoAmI(token);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: user.email, firstName: 'Grace' });

    await page.getByRole('link', { name: 'Back to Settings' }).click();
    const row = page.getByRole('row', { name: /laptop script/ });
    await row.getByText('Read only').waitFor();
    expect(await page.content()).not.toContain(token);
    await row.getByRole('button', { name: 'Revoke laptop script' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke API Token' });
    await dialog.getByText('Are you sure you want to revoke laptop script?').waitFor();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('API Token Revoked').waitFor();
    await page.getByText('You have no API tokens.').waitFor();

    const refused = await whoAmI(token);
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toBe('Invalid, expired or revoked API token.');
    expect(problems).toEqual([]);
    await context.close();
  });
});
