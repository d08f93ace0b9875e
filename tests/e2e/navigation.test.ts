import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let admin: TestUser;

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 360, height: 740 };

async function open(path: string, viewport: typeof DESKTOP): Promise<Page> {
  const context = await signedInContext(browser, app.url, admin.cookie, { viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  await page.goto(app.url + path);
  await page.waitForLoadState('load');
  return page;
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const focusedIs = (page: Page, selector: string) =>
  page.evaluate((s) => document.activeElement === document.querySelector(s), selector);

describe.skipIf(!hasBrowser)('keyboard and menus in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    admin = await createSignedInUser(app.db, { role: 'admin' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`"/" and Ctrl/Cmd+K go to the global search at ${viewport.width}px; "/" in a field is text`, async () => {
      const page = await open('/knowledge-base', viewport);
      await page.keyboard.press('/');
      expect(await focusedId(page)).toBe('global-search-input');
      await expect(page.locator('#global-search-input').inputValue()).resolves.toBe('');
      // Typed into another field, "/" is a character.
      const filter = page.locator('#kb-q');
      await filter.click();
      await page.keyboard.type('a/b');
      await expect(filter.inputValue()).resolves.toBe('a/b');
      expect(await focusedId(page)).toBe('kb-q');
      // Ctrl+K and Cmd+K work from anywhere, a field included.
      await page.keyboard.press('Control+k');
      expect(await focusedId(page)).toBe('global-search-input');
      await page.locator('body').click({ position: { x: 5, y: viewport.height - 5 } });
      await page.keyboard.press('Meta+k');
      expect(await focusedId(page)).toBe('global-search-input');
      await page.context().close();
    });
  }

  for (const viewport of [DESKTOP, PHONE]) {
    it(`Create New closes on Escape and on a click outside, the focus back on it, at ${viewport.width}px`, async () => {
      const page = await open('/knowledge-base', viewport);
      const menu = page.locator('details.kb-create');
      const trigger = menu.locator('summary');
      await trigger.click();
      await expect(menu.getAttribute('open')).resolves.toBe('');
      await page.getByRole('menuitem').first().focus();
      await page.keyboard.press('Escape');
      await expect(menu.getAttribute('open')).resolves.toBeNull();
      expect(await focusedIs(page, 'details.kb-create > summary')).toBe(true);

      await trigger.click();
      await expect(menu.getAttribute('open')).resolves.toBe('');
      // A click on nothing (the page's own background).
      const main = (await page.locator('#main').boundingBox())!;
      await page.mouse.click(main.x + main.width - 4, main.y + main.height - 4);
      await expect(menu.getAttribute('open')).resolves.toBeNull();
      expect(await focusedIs(page, 'details.kb-create > summary')).toBe(true);

      // A click on another control closes the menu and leaves the focus there.
      await trigger.click();
      await page.locator('#kb-q').click();
      await expect(menu.getAttribute('open')).resolves.toBeNull();
      expect(await focusedId(page)).toBe('kb-q');
      await page.context().close();
    });
  }

  it('the mobile menu closes on Escape and gives the focus back to its toggle', async () => {
    const page = await open('/', PHONE);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    await page.locator('.shell[data-menu-open]').waitFor();
    await page.getByRole('link', { name: 'Team', exact: true }).focus();
    await page.keyboard.press('Escape');
    await page.locator('.shell[data-menu-open]').waitFor({ state: 'detached' });
    expect(await focusedIs(page, '[data-menu-toggle]')).toBe(true);
    // The overlay closes it too, the focus again on the toggle.
    await toggle.click();
    await page.locator('.sidebar-overlay').click({ position: { x: 340, y: 400 } });
    await page.locator('.shell[data-menu-open]').waitFor({ state: 'detached' });
    expect(await focusedIs(page, '[data-menu-toggle]')).toBe(true);
    await page.context().close();
  });

  it('the sidebar leads an admin to documents, health report, jobs and both deleted-items screens', async () => {
    const page = await open('/', DESKTOP);
    for (const [name, path, heading] of [
      ['Documents', '/documents', 'Documents'],
      ['Health Report', '/reports/health', 'Health report'],
      ['Jobs', '/admin/jobs', 'Jobs'],
      ['Deleted Knowledge', '/knowledge-base/deleted', 'Deleted knowledge items'],
      ['Deleted Documents', '/documents/deleted', 'Deleted documents'],
    ]) {
      await page.locator('#sidebar').getByRole('link', { name, exact: true }).click();
      await page.waitForURL(app.url + path);
      await expect(page.locator('.page-header__title').innerText()).resolves.toBe(heading);
      await expect(page.locator('#sidebar [aria-current=page]').innerText()).resolves.toBe(name);
    }
    await page.context().close();
  });
});
