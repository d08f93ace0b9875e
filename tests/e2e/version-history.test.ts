import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { documentVersions } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { hasBrowser, signedInPage as openSignedInPage, sharedBrowser } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let user: TestUser;

const LOAD_FAILED = 'Failed to load version history. Please try again.';

const signedInPage = () => openSignedInPage(browser, app.url, user.cookie, { viewport: { width: 1400, height: 900 } });

/** Opens the item's own page and its Version History dialog (the island loads on that click). */
async function openVersionHistory(page: Page, id: string) {
  await page.goto(`${app.url}/knowledge-base/${id}`);
  await page.getByRole('button', { name: 'Version History' }).click();
  return page.getByRole('dialog', { name: 'Version History' });
}

describe.skipIf(!hasBrowser)('Version History dialog in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Grace', lastName: 'Hopper' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('a failed load shows an error with Retry and an Error toast, not the empty state; Retry loads the versions', async () => {
    const item = await createItem(
      app.db,
      'knowledge',
      { title: 'DNS scavenging', content: 'Enable scavenging.', category: 'DNS' },
      user.id,
    );
    const { context, page, problems } = await signedInPage();
    await page.route(`**/api/knowledge-base/${item.id}/versions`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    const dialog = await openVersionHistory(page, item.id);
    await expect(dialog.getByRole('alert').innerText()).resolves.toBe(LOAD_FAILED);
    const toast = page.locator('#toasts .toast--error');
    await toast.getByText('Error', { exact: true }).waitFor();
    await toast.getByText(LOAD_FAILED, { exact: true }).waitFor();
    await expect(dialog.getByText('No version history available').count()).resolves.toBe(0);
    await expect(dialog.getByText('Loading…').count()).resolves.toBe(0);

    await page.unroute(`**/api/knowledge-base/${item.id}/versions`);
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await dialog.getByRole('button', { name: /Version 1/ }).waitFor();
    await expect(dialog.getByText('Current', { exact: true }).count()).resolves.toBe(1);
    await expect(dialog.getByRole('alert').count()).resolves.toBe(0);
    await expect(dialog.getByRole('button', { name: 'Retry' }).count()).resolves.toBe(0);
    await dialog.getByText('Select a version to preview its content').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an item without versions shows the empty state, with no error and no Retry', async () => {
    const item = await createItem(
      app.db,
      'knowledge',
      { title: 'Imported note', content: 'From the old wiki.' },
      user.id,
    );
    await app.db.delete(documentVersions).where(eq(documentVersions.documentId, item.id));
    const { context, page, problems } = await signedInPage();
    const dialog = await openVersionHistory(page, item.id);
    await dialog.getByText('No version history available').waitFor();
    await dialog.getByText('Select a version to preview its content').waitFor();
    await expect(dialog.getByRole('alert').count()).resolves.toBe(0);
    await expect(dialog.getByRole('button', { name: 'Retry' }).count()).resolves.toBe(0);
    await expect(page.locator('#toasts .toast').count()).resolves.toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
