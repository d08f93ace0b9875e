import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;

const VIEWPORTS = [
  { width: 1366, height: 800 },
  { width: 360, height: 740 },
];

describe.skipIf(!hasBrowser)('/admin/users in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await app?.stop();
  });

  for (const viewport of VIEWPORTS) {
    it(`changes a role by keyboard and deactivates an account at ${viewport.width}px`, async () => {
      const admin = await createSignedInUser(app.db, {
        role: 'admin',
        firstName: 'Ann',
        lastName: `Admin${viewport.width}`,
      });
      const name = `Eddie Editor${viewport.width}`;
      const target = await createSignedInUser(app.db, {
        role: 'editor',
        firstName: 'Eddie',
        lastName: `Editor${viewport.width}`,
      });
      const { page, problems, context } = await signedInPage(browser, app.url, admin.cookie, { viewport });
      await page.goto(`${app.url}/`);
      // The sidebar's Admin section links the page (on phones behind the menu button).
      await expect(page.locator('a[href="/admin/users"]').count()).resolves.toBeGreaterThan(0);
      await page.goto(`${app.url}/admin/users`);

      // Change the role with the keyboard only: pick Viewer in the select, Tab to its Save button, Enter.
      const select = page.getByLabel(`Role of ${name}`, { exact: true });
      await select.focus();
      await select.selectOption('viewer');
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe(
        `Save role of ${name}`,
      );
      await page.keyboard.press('Enter');
      await page.locator('#toasts').getByText('Role changed').waitFor();
      await expect(page.getByLabel(`Role of ${name}`, { exact: true }).inputValue()).resolves.toBe('viewer');
      const [afterRole] = await app.db.select().from(users).where(eq(users.id, target.id));
      expect(afterRole.role).toBe('viewer');

      // Deactivate: visible and inside the viewport, then a Reactivate button takes its place.
      const deactivate = page.getByRole('button', { name: `Deactivate ${name}` });
      await deactivate.scrollIntoViewIfNeeded();
      const box = await deactivate.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      await deactivate.click();
      await page.locator('#toasts').getByText('Account deactivated').waitFor();
      await page.getByRole('button', { name: `Reactivate ${name}` }).waitFor();
      const row = page.locator('tr', { has: page.getByLabel(`Role of ${name}`, { exact: true }) });
      await expect(row.innerText()).resolves.toContain('Deactivated');
      const [afterDeactivate] = await app.db.select().from(users).where(eq(users.id, target.id));
      expect(afterDeactivate.accountStatus).toBe('deactivated');
      await expect(app.db.select().from(sessions).where(eq(sessions.userId, target.id))).resolves.toEqual([]);

      // The page itself does not scroll sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
