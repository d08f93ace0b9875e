import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP, generateTOTP } from '@oslojs/otp';
import type { Browser } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password';
import { users } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let user: TestUser;
const PASSWORD = 'two factor password 1';

describe.skipIf(!hasBrowser)('two-factor sign-in in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Ada', lastName: 'Lovelace' });
    await app.db
      .update(users)
      .set({ password: await hashPassword(PASSWORD) })
      .where(eq(users.id, user.id));
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('enrols with the QR code, signs out, and signs in with the password and then a generated code', async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, user.cookie);
    await page.goto(`${app.url}/settings`);
    const section = page.locator('#two-factor');
    await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await page.waitForURL(`${app.url}/settings/two-factor`);

    // The QR code is an inline SVG drawn on the server, with the key beside it for typing by hand.
    const qr = page.locator('#two-factor svg');
    expect(await qr.isVisible()).toBe(true);
    expect(await qr.getAttribute('aria-label')).toBe('QR code to scan with your authenticator app');
    const box = await qr.boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    const secret = (await page.locator('#two-factor-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const key = decodeBase32IgnorePadding(secret);

    await section.getByLabel('Authentication code').fill(generateTOTP(key, 30, 6));
    await section.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Two-factor sign-in is on.').waitFor();
    expect(await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10);
    await page.getByRole('link', { name: 'Done' }).click();
    await page.waitForURL(`${app.url}/settings`);
    expect(await section.getByText('10 recovery codes left.').isVisible()).toBe(true);

    const nav = page.getByRole('complementary', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Sign Out' }).click();
    await page.waitForURL(`${app.url}/`);

    await page.goto(`${app.url}/login`);
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${app.url}/login/two-factor`);
    const field = page.getByLabel('Authentication code');
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    // The code the phone shows a moment later (the set-up used this step's code; a code is single-use).
    await field.fill(generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + 1), 6));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByText('Login Successful').waitFor();
    expect(await nav.getByText('Ada Lovelace').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
