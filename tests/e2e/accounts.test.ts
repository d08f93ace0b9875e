import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser, sharedBrowser } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';

let app: RunningApp;
let browser: Browser;
const ADMIN = { email: 'admin@example.com', password: 'admin password 1' };
const USER = { first: 'Grace', last: 'Hopper', email: 'grace@example.com', password: 'grace password 1' };

/** The newest link to `pathname` in the e-mails written to DATA_DIR/mail for `to` (waits for background delivery). */
async function mailedLink(to: string, pathname: string): Promise<string> {
  const dir = path.join(app.config.dataDir, 'mail');
  for (let i = 0; i < 100; i++) {
    const files = (await readdir(dir).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.txt'))
      .sort()
      .reverse();
    for (const f of files) {
      const text = await readFile(path.join(dir, f), 'utf8');
      const link = text.match(new RegExp(`${app.url}${pathname}\\?token=[\\w-]+`))?.[0];
      if (text.startsWith(`To: ${to}`) && link) return link;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no e-mail to ${to} with a ${pathname} link`);
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function register(page: Page, u: { first: string; last: string; email: string; password: string }) {
  await page.goto(`${app.url}/register`);
  await page.getByLabel('First name').fill(u.first);
  await page.getByLabel('Last name').fill(u.last);
  await page.getByLabel('Email', { exact: true }).fill(u.email);
  await page.getByLabel('Password', { exact: true }).fill(u.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(u.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
}

describe.skipIf(!hasBrowser)('accounts in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('register → e-mailed link → admin approves in the UI → sign in → signed-in shell at /', async () => {
    // The first account becomes the admin.
    const adminCtx = await browser.newContext();
    adminCtx.setDefaultTimeout(10_000);
    const adminPage = await adminCtx.newPage();
    await register(adminPage, { first: 'Ann', last: 'Admin', ...ADMIN });
    await adminPage.goto(await mailedLink(ADMIN.email, '/verify-email'));
    await adminPage.getByRole('heading', { name: 'Verification Complete' }).waitFor();

    // A second person registers and verifies: now awaiting approval.
    const ctx = await browser.newContext();
    ctx.setDefaultTimeout(10_000);
    const page = await ctx.newPage();
    await register(page, USER);
    await page.goto(await mailedLink(USER.email, '/verify-email'));
    await page.getByRole('heading', { name: 'Email Verified' }).waitFor();
    expect(await page.getByText('Awaiting admin approval', { exact: true }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'View Status' }).click();
    await page.getByText('Pending Approval', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Try Login Again' }).click();
    await signIn(page, USER.email, USER.password);
    // The banner says why (the "Login Failed" toast repeats it).
    await page
      .locator('.banner')
      .getByText('Your account is pending admin approval. Please wait for approval.')
      .waitFor();

    // The admin follows the deep link, signs in, and approves in the UI.
    await adminPage.goto(`${app.url}/admin/approval`);
    expect(new URL(adminPage.url()).pathname).toBe('/login');
    await signIn(adminPage, ADMIN.email, ADMIN.password);
    await adminPage.waitForURL(`${app.url}/admin/approval`);
    await adminPage.getByText('1 user pending approval').waitFor();
    const row = adminPage.getByRole('row', { name: /grace@example\.com/ });
    expect(await row.getByText('Verified').isVisible()).toBe(true);
    await row.getByRole('button', { name: 'Approve Grace Hopper' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Approve User' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await adminPage.getByText('All caught up!').waitFor();
    await adminPage.getByText('User Approved').first().waitFor();

    // The approved user signs in and lands on "/" in the signed-in shell.
    await page.goto(`${app.url}/login`);
    await page.getByLabel('Password', { exact: true }).fill(USER.password);
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('password');
    await signIn(page, USER.email, USER.password);
    await page.waitForURL(`${app.url}/`);
    const nav = page.getByRole('complementary', { name: 'Main navigation' });
    await nav.waitFor();
    expect(await nav.getByRole('link', { name: 'Dashboard' }).isVisible()).toBe(true);
    expect(await nav.getByText('Grace Hopper').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Start Your Free Trial' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'User Approvals' }).count()).toBe(0);

    // A non-admin at /admin/approval sees the Access Denied card.
    const res = await page.goto(`${app.url}/admin/approval`);
    expect(res?.status()).toBe(403);
    await page.getByText('Access Denied').waitFor();
    expect(await page.getByText('You do not have permission to access this page.').isVisible()).toBe(true);

    // Sign out ends the session.
    await nav.getByRole('link', { name: 'Sign Out' }).click();
    await page.waitForURL(`${app.url}/`);
    expect(await page.getByRole('link', { name: 'Start Your Free Trial' }).isVisible()).toBe(true);
    await adminCtx.close();
    await ctx.close();
  }, 120_000);

  it('shows the login banners from the URL', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/login?error=google_not_configured`);
    expect(await page.getByRole('alert').textContent()).toBe('Google authentication is not configured.');
    await page.goto(`${app.url}/login?success=account_created`);
    expect(await page.getByText('Account created successfully!').isVisible()).toBe(true);
    await page.close();
  });
});
