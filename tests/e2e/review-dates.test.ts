import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../../src/knowledge/service';
import { hasBrowser, htmxSettled, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Review dates in Chromium (issue 22): an overdue item's badge, the dashboard panel, Mark as reviewed, the filter. */

let app: RunningApp;
let browser: Browser;
let owner: TestUser;
let itemId: string;

describe.skipIf(!hasBrowser)('review dates in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    owner = await createSignedInUser(app.db, { role: 'editor', firstName: 'Olive' });
    const item = await createItem(
      app.db,
      'knowledge',
      { title: 'Rotate the VPN certificates', content: 'Every year.', reviewIntervalDays: 30 },
      owner.id,
    );
    itemId = item.id;
    await createItem(
      app.db,
      'knowledge',
      { title: 'Fresh checklist', content: 'Still right.', reviewIntervalDays: 90 },
      owner.id,
    );
    // Written 40 days ago: ten days overdue.
    await app.db.execute(sql`update documents set created_at = now() - interval '40 days',
        review_due_at = now() - interval '10 days' where id = ${itemId}`);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('shows the overdue badge, lists the item on the dashboard, and Mark as reviewed clears the badge', async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, owner.cookie, {
      viewport: { width: 1366, height: 768 },
    });
    try {
      await page.goto(`${app.url}/`);
      const panel = page.locator('section.card', { has: page.getByRole('heading', { name: 'Due for review' }) });
      await panel.getByText('Rotate the VPN certificates').waitFor();
      await panel.getByText('Review overdue').waitFor();

      await panel.getByRole('link', { name: 'View overdue', exact: true }).click();
      await page.waitForURL(/\/knowledge-base\?review=overdue$/);
      await expect(page.getByLabel('Review', { exact: true }).inputValue()).resolves.toBe('overdue');
      const card = page.locator('article.kb-card', { hasText: 'Rotate the VPN certificates' });
      await card.getByText('Review overdue').waitFor();
      await expect(page.getByText('Fresh checklist').count()).resolves.toBe(0);

      // The filter is a URL: choosing "Any review date" lists every item again.
      await page.getByLabel('Review', { exact: true }).selectOption('');
      await page.waitForURL(/\/knowledge-base\?.*review=(&|$)/);
      await htmxSettled(page);
      await page.getByText('Fresh checklist').waitFor();

      await card.getByRole('link', { name: 'Rotate the VPN certificates', exact: true }).click();
      await page.waitForURL(new RegExp(`/knowledge-base/${itemId}/`));
      const status = page.locator('#review-status');
      await status.getByText('Review overdue').waitFor();
      await status.getByRole('button', { name: 'Mark as reviewed' }).click();
      await page
        .locator('#review-status')
        .getByText(/^Review due /)
        .waitFor();
      await expect(page.locator('#review-status').getByText('Review overdue').count()).resolves.toBe(0);
      await expect(page.locator('#review-status').textContent()).resolves.toContain('last reviewed');

      // Reloaded, the page agrees; the dashboard no longer lists it.
      await page.reload();
      await page
        .locator('#review-status')
        .getByText(/^Review due /)
        .waitFor();
      await expect(page.getByText('Review overdue').count()).resolves.toBe(0);
      await page.goto(`${app.url}/`);
      await page.getByRole('heading', { name: 'Recent Knowledge Base' }).waitFor();
      await expect(page.getByRole('heading', { name: 'Due for review' }).count()).resolves.toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
  it('sets "Review every N days" in the editor; emptied, the item has no review date', async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, owner.cookie, {
      viewport: { width: 1366, height: 768 },
    });
    try {
      await page.goto(`${app.url}/knowledge-base/${itemId}/edit`);
      await page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
      const field = page.getByLabel('Review every N days');
      await expect(field.inputValue()).resolves.toBe('30');
      await field.fill('7');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(new RegExp(`/knowledge-base/${itemId}/`));
      await page.locator('#review-status').getByText('Review every 7 days').waitFor();

      await page.goto(`${app.url}/knowledge-base/${itemId}/edit`);
      await page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
      await page.getByLabel('Review every N days').fill('');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(new RegExp(`/knowledge-base/${itemId}/`));
      await page.getByRole('heading', { name: 'Rotate the VPN certificates' }).waitFor();
      await expect(page.locator('#review-status').count()).resolves.toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
