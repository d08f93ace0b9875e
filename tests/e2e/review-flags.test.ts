import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../../src/knowledge/service';
import { deleteServer, updateServer } from '../../src/servers/commands';
import { serverInput } from '../../src/servers/schemas';
import { createServer, linkDocument } from '../../src/servers/service';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Review flags in Chromium (issue 23): a runbook flagged by a server change shows it; Mark as reviewed clears it. */

let app: RunningApp;
let browser: Browser;
let owner: TestUser;
let itemId: string;

describe.skipIf(!hasBrowser)('review flags in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    owner = await createSignedInUser(app.db, { role: 'editor', firstName: 'Olive', lastName: 'Owner' });
    const ada = await createSignedInUser(app.db, { role: 'editor', firstName: 'Ada', lastName: 'Ops' });
    const input = serverInput.parse({ name: 'web-e2e', ipAddress: '127.0.3.1', status: 'maintenance' });
    const server = await createServer(app.db, input, ada.id);
    const item = await createItem(app.db, 'knowledge', { title: 'Patch web-e2e', content: 'ssh in.' }, owner.id);
    itemId = item.id;
    const asOwner = { id: owner.id, role: 'editor' };
    const other = await createItem(app.db, 'knowledge', { title: 'Old web-e2e notes', content: 'x' }, owner.id);
    await linkDocument(app.db, server.id, item.id, 'knowledge-base', asOwner);
    await linkDocument(app.db, server.id, other.id, 'knowledge-base', asOwner);
    await updateServer(app.db, server.id, { ...input, ipAddress: '127.0.3.2' }, { id: ada.id, viaToken: false });
    // A second server, deleted: its runbook is flagged too.
    const gone = await createServer(app.db, serverInput.parse({ name: 'db-gone', status: 'maintenance' }), ada.id);
    await linkDocument(app.db, gone.id, other.id, 'knowledge-base', asOwner);
    await deleteServer(app.db, gone.id, { id: ada.id, viaToken: false });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('lists the flagged runbook on the dashboard, shows what changed on its page, and Mark as reviewed clears it', async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, owner.cookie, {
      viewport: { width: 1366, height: 768 },
    });
    try {
      await page.goto(`${app.url}/`);
      const panel = page.locator('section.card', { has: page.getByRole('heading', { name: 'Due for review' }) });
      const row = panel.getByRole('link', { name: /Patch web-e2e/ });
      await row.getByText('Server changed').waitFor();
      await row.click();
      await page.waitForURL(new RegExp(`/knowledge-base/${itemId}/`));

      const status = page.locator('#review-status');
      const flags = status.getByRole('list', { name: 'Linked server changes' });
      await flags.getByText(/web-e2e's IP address changed 127\.0\.3\.1 → 127\.0\.3\.2, .* by Ada Ops/).waitFor();
      await flags.getByText('Needs review').waitFor();
      await status.getByRole('button', { name: 'Mark as reviewed' }).click();
      // No review interval: clearing the flags was the review, so the line goes.
      await page.locator('#review-status').waitFor({ state: 'detached' });
      await page.getByText('Marked as reviewed').first().waitFor();

      await page.reload();
      await page.getByRole('heading', { name: 'Patch web-e2e' }).waitFor();
      await expect(page.locator('#review-status').count()).resolves.toBe(0);
      // The other runbook still needs review, for both of its servers.
      await page.goto(`${app.url}/knowledge-base?review=flagged`);
      await page.getByText('Old web-e2e notes').waitFor();
      await expect(page.getByText('Patch web-e2e').count()).resolves.toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
