import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createSession } from '../../src/auth/sessions';
import { sessionCookieName } from '../../src/http/session';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let user: TestUser;

const lightContext = (cookie: string) => signedInContext(browser, app.url, cookie, { colorScheme: 'light' });

describe.skipIf(!hasBrowser)('settings in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Ada', lastName: 'Lovelace' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('saves profile and preferences on the server: they survive a reload and a new browser', async () => {
    const context = await lightContext(user.cookie);
    const page = await context.newPage();
    await page.goto(app.url + '/settings');
    await page.getByLabel('First name').fill('Augusta');
    await page.getByLabel('Timezone').selectOption('UTC');
    await page.getByLabel('Department').selectOption('IT Security');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile Updated').waitFor();

    await page.getByLabel('Theme').selectOption('dark');
    await page.getByRole('switch', { name: /Compact view/ }).check();
    await page.locator('form[action="/settings/appearance"]').getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText('Preferences Updated').waitFor();
    await expect(page.locator('html').getAttribute('data-theme')).resolves.toBe('dark');

    await page.getByRole('switch', { name: /Scheduled health reports/ }).check();
    await page
      .locator('form[action="/settings/notifications"]')
      .getByRole('button', { name: 'Save Preferences' })
      .click();
    await page.getByText('Preferences Updated').waitFor();

    await page.reload();
    await expect(page.getByLabel('First name').inputValue()).resolves.toBe('Augusta');
    await expect(page.getByRole('switch', { name: /Compact view/ }).isChecked()).resolves.toBe(true);
    await context.close();

    // A new browser (own context, own session) sees the same settings, and the theme from the first byte.
    const { token } = await createSession(app.db, user.id);
    const fresh = await lightContext(`${sessionCookieName(false)}=${token}`);
    const other = await fresh.newPage();
    const res = await other.goto(app.url + '/settings');
    // Theme and compact view come from the server in the first byte (no flash, no jump).
    expect(await res!.text()).toContain('<html lang="en" data-theme="dark" class="compact">');
    await expect(other.getByLabel('First name').inputValue()).resolves.toBe('Augusta');
    await expect(other.getByLabel('Timezone').inputValue()).resolves.toBe('UTC');
    await expect(other.getByLabel('Department').inputValue()).resolves.toBe('IT Security');
    await expect(other.getByRole('switch', { name: /Scheduled health reports/ }).isChecked()).resolves.toBe(true);
    await expect(other.getByRole('switch', { name: /Push notifications/ }).isChecked()).resolves.toBe(false);
    await expect(other.getByText('Account created').innerText()).resolves.toContain('(UTC)');
    await fresh.close();
  });
});
