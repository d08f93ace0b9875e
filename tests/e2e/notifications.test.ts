import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createItem } from '../../src/knowledge/service';
import { hasBrowser, htmxSettled, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Watching an item and the header's bell: A watches, B edits, A sees the badge, opens the panel, follows, marks read. */
let app: RunningApp;
let browser: Browser;
let ann: TestUser;
let ben: TestUser;
let item: { id: string; title: string };
let version = 1;

/** Ben saves the item through the API (a new version: Ann, watching, is told). */
async function benEdits(content: string) {
  const res = await fetch(`${app.url}/api/knowledge-base/${item.id}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Origin: app.url, Cookie: ben.cookie },
    body: JSON.stringify({ title: item.title, content, version }),
  });
  expect(res.status).toBe(200);
  version++;
}

const badge = (page: Page) => page.locator('.notify__bell #notify-badge');
const bell = (page: Page) => page.locator('summary.notify__bell');

describe.skipIf(!hasBrowser)('watching and the notifications bell in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    ann = await createSignedInUser(app.db, { firstName: 'Ann', lastName: 'Reader', role: 'viewer' });
    ben = await createSignedInUser(app.db, { firstName: 'Ben', lastName: 'Editor' });
    item = await createItem(app.db, 'knowledge', { title: 'Rotate the backup tapes', content: 'Weekly.' }, ben.id);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('A watches, B edits, A sees the badge, opens the panel by keyboard, follows the link, marks all read', async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, ann.cookie, {
      viewport: { width: 1366, height: 768 },
    });
    await page.goto(`${app.url}/knowledge-base/${item.id}`);
    await page.getByRole('button', { name: 'Watch', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Unwatch' }).count()).toBe(1);
    // htmx kept the focus on the swapped button.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('watch-button');

    await benEdits('Weekly, on Fridays.');
    await page.goto(`${app.url}/knowledge-base`);
    await expect.poll(() => badge(page).textContent()).toBe('1 unread');

    // Keyboard: focus the bell, Enter opens the panel, Tab reaches the notification.
    await bell(page).focus();
    await page.keyboard.press('Enter');
    const panel = page.locator('#notify-panel');
    const entry = panel.getByRole('link', { name: /Ben Editor updated "Rotate the backup tapes"/ });
    await entry.waitFor();
    await htmxSettled(page);
    expect(await panel.getByText('Unread:').count()).toBe(1);
    // Tab: Mark all as read, then the notification; Escape closes and gives the focus back to the bell.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Mark all as read');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Unread: Ben Editor updated/);
    await page.keyboard.press('Escape');
    expect(await panel.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('notify__bell'))).toBe(true);

    await bell(page).click();
    await entry.click();
    await page.waitForURL(`${app.url}/knowledge-base/${item.id}`);
    await expect.poll(() => page.locator('h1.doc__title').textContent()).toBe(item.title);
    await expect.poll(() => badge(page).textContent()).toBe('');

    // Two more saves: two unread; Mark all as read in the panel clears them and the badge.
    await benEdits('Weekly, on Fridays, before noon.');
    await benEdits('Weekly, on Fridays, before 11:00.');
    await page.reload();
    await expect.poll(() => badge(page).textContent()).toBe('2 unread');
    await bell(page).click();
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => badge(page).textContent()).toBe('');
    await expect.poll(() => panel.getByText('Unread:').count()).toBe(0);
    expect(await panel.getByRole('link', { name: /Ben Editor updated/ }).count()).toBe(3);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('at 360 px the panel fits the screen', async () => {
    await benEdits('Phone edit.');
    const { context, page, problems } = await signedInPage(browser, app.url, ann.cookie, {
      viewport: { width: 360, height: 740 },
    });
    await page.goto(`${app.url}/knowledge-base/${item.id}`);
    await expect.poll(() => badge(page).textContent()).toBe('1 unread');
    await bell(page).click();
    const panel = page.locator('#notify-panel');
    await panel
      .getByRole('link', { name: /Phone edit|Ben Editor updated/ })
      .first()
      .waitFor();
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without JavaScript the bell is a link to /notifications, whose entries and Mark all as read work', async () => {
    const { context, page } = await signedInPage(browser, app.url, ann.cookie, { javaScriptEnabled: false });
    await page.goto(`${app.url}/knowledge-base`);
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.waitForURL(`${app.url}/notifications`);
    expect(await page.getByText('1 unread').count()).toBe(1);
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page.waitForURL(`${app.url}/notifications`);
    expect(await page.getByText('All read').count()).toBe(1);
    // The Watch form works too.
    await page.goto(`${app.url}/knowledge-base/${item.id}`);
    await page.getByRole('button', { name: 'Unwatch' }).click();
    await page.waitForURL(`${app.url}/knowledge-base/${item.id}`);
    expect(await page.getByRole('button', { name: 'Watch', exact: true }).count()).toBe(1);
    await context.close();
  });
});
