import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password';
import { users } from '../../src/db/schema';
import { PASSWORD } from '../auth/helpers';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';

/** The toasts of signing in, registering and Team's required fields (spec §5, §8), as a person sees them. */

let app: RunningApp;
let browser: Browser;

const DESKTOP: BrowserContextOptions = { viewport: { width: 1366, height: 768 } };
const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

async function newPage(options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(10_000);
  return context.newPage();
}

/** The toast on screen: its title and text, once it shows. */
async function toastOf(page: Page) {
  const toast = page.locator('#toasts .toast');
  await toast.waitFor();
  return {
    toast,
    title: await toast.locator('.toast__title').innerText(),
    text: (await toast.locator('.toast__text').count()) ? await toast.locator('.toast__text').innerText() : undefined,
    role: await toast.getAttribute('role'),
  };
}

/** The toast lies wholly inside the viewport. */
async function expectOnScreen(page: Page) {
  const box = (await page.locator('#toasts .toast').boundingBox())!;
  const { width, height } = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  expect(box.y + box.height).toBeLessThanOrEqual(height);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${app.url}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function fillRegistration(page: Page, email: string, confirm: string) {
  await page.goto(`${app.url}/register`);
  await page.getByLabel('First name').fill('Toby');
  await page.getByLabel('Last name').fill('Toast');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(confirm);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

describe.skipIf(!hasBrowser)('account and team toasts in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    const password = await hashPassword(PASSWORD);
    for (const email of ['desk@example.com', 'phone@example.com']) {
      await app.db.insert(users).values({ email, password, isEmailVerified: true, accountStatus: 'active' });
    }
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('1366×768: sign-in failure (banner and toast), then success ("Login Successful" on the next page)', async () => {
    const page = await newPage(DESKTOP);
    await signIn(page, 'desk@example.com', 'not the password');
    const failed = await toastOf(page);
    expect(failed).toMatchObject({ title: 'Login Failed', text: 'Invalid email or password.', role: 'alert' });
    expect(await page.locator('.banner--error').innerText()).toBe('Invalid email or password.');
    await expectOnScreen(page);
    // It goes on click, like any toast.
    await failed.toast.click();
    await failed.toast.waitFor({ state: 'detached' });

    await signIn(page, 'desk@example.com', PASSWORD);
    await page.waitForURL(`${app.url}/`);
    const ok = await toastOf(page);
    expect(ok).toMatchObject({ title: 'Login Successful', text: undefined, role: 'status' });
    await expectOnScreen(page);
    // Shown once: not again on reload.
    await page.reload();
    await page.getByRole('complementary', { name: 'Main navigation' }).waitFor();
    expect(await page.locator('#toasts .toast').count()).toBe(0);
    await page.context().close();
  });

  it('1366×768: registration failure (field error and toast), then success on "Check Your Email"', async () => {
    const page = await newPage(DESKTOP);
    await fillRegistration(page, 'toby@example.com', 'a different password');
    const failed = await toastOf(page);
    expect(failed).toMatchObject({ title: 'Registration Failed', text: "Passwords don't match", role: 'alert' });
    expect(await page.locator('.field__error').innerText()).toBe("Passwords don't match");

    await fillRegistration(page, 'toby@example.com', PASSWORD);
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    const ok = await toastOf(page);
    expect(ok).toMatchObject({
      title: 'Registration Successful',
      text: 'Please check your email to verify your account.',
      role: 'status',
    });
    await expectOnScreen(page);
    // It leaves by itself after 5 s.
    await ok.toast.waitFor({ state: 'detached', timeout: 8000 });
    await page.context().close();
  });

  it('1366×768: Team with required fields missing shows "Missing Information", not the browser\'s bubble', async () => {
    const user = await createSignedInUser(app.db);
    const context = await signedInContext(browser, app.url, user.cookie, DESKTOP);
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${app.url}/team`);
    for (const [open, dialogName, submit] of [
      ['Add Team Member', 'Add Team Member', 'Add Member'],
      ['Invite Member', 'Invite Member', 'Send Invitation'],
    ]) {
      await page.getByRole('button', { name: open }).click();
      const dialog = page.getByRole('dialog', { name: dialogName });
      await dialog.waitFor();
      await dialog.getByLabel('Role').fill('VIP');
      await dialog.getByRole('button', { name: submit }).click();
      const shown = await toastOf(page);
      expect(shown).toMatchObject({
        title: 'Missing Information',
        text: 'Please fill in all required fields.',
        role: 'alert',
      });
      // The server's field errors are in the dialog, which stays open with what was typed.
      await dialog.getByText('Valid email is required').waitFor();
      expect(await dialog.getByLabel('Role').inputValue()).toBe('VIP');
      await expectOnScreen(page);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    await context.close();
  });

  it('1366×768 without JavaScript: the flash is still read, as a status line', async () => {
    const page = await newPage({ ...DESKTOP, javaScriptEnabled: false });
    await signIn(page, 'desk@example.com', PASSWORD);
    await page.waitForURL(`${app.url}/`);
    const status = page.locator('#toasts [role="status"]');
    expect(await status.innerText()).toBe('Login Successful');
    expect(await status.isVisible()).toBe(true);
    await page.context().close();
  });

  it('360×740: the sign-in toasts fit the phone screen', async () => {
    const page = await newPage(PHONE);
    await signIn(page, 'phone@example.com', 'not the password');
    expect(await toastOf(page)).toMatchObject({ title: 'Login Failed', text: 'Invalid email or password.' });
    await expectOnScreen(page);
    await page.screenshot({ path: '/tmp/h/accounts-toast-360-failed.png' });

    await signIn(page, 'phone@example.com', PASSWORD);
    await page.waitForURL(`${app.url}/`);
    expect(await toastOf(page)).toMatchObject({ title: 'Login Successful' });
    await expectOnScreen(page);
    await page.screenshot({ path: '/tmp/h/accounts-toast-360-ok.png' });
    await page.context().close();
  });
});
