import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createItem } from '../../src/knowledge/service';
import { hasBrowser, signedInPage, sharedBrowser } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let owner: TestUser;
let colleague: TestUser;

const TITLE = 'Break-glass procedure';

describe.skipIf(!hasBrowser)('sharing an item in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    owner = await createSignedInUser(app.db, { firstName: 'Olga', lastName: 'Owner' });
    colleague = await createSignedInUser(app.db, { firstName: 'Bob', lastName: 'Other' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('the owner restricts the item and creates a link; signed out it opens, a colleague no longer sees the item', async () => {
    const item = await createItem(
      app.db,
      'knowledge',
      { title: TITLE, content: '## Steps\n\nCall the on-call lead.' },
      owner.id,
    );
    const { context, page, problems } = await signedInPage(browser, app.url, owner.cookie, {
      viewport: { width: 1400, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await page.goto(`${app.url}/knowledge-base/${item.id}`);
    await page.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share' });
    await dialog.getByText('Not shared with anyone yet.').waitFor();
    // The choice shows while the server is still answering (held here until it has been seen).
    let answer!: () => void;
    const held = new Promise<void>((r) => (answer = r));
    await page.route('**/visibility', async (route) => {
      await held;
      await route.continue();
    });
    await dialog.getByRole('radio', { name: /Restricted/ }).check();
    answer();
    await page.locator('#toasts').getByText('Visibility changed.').waitFor();
    await page.unroute('**/visibility');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const linkBox = dialog.getByRole('textbox', { name: 'Share link' });
    await linkBox.waitFor();
    const url = await linkBox.inputValue();
    expect(url).toMatch(new RegExp(`^${app.url}/s/[A-Za-z0-9_-]{43}$`));
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(url);
    await dialog.getByText('Anyone with the link').waitFor();
    // A refused change shows the server's reason and puts the choice back.
    await page.route('**/visibility', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Database unavailable."}' }),
    );
    await dialog.getByRole('radio', { name: /Everyone/ }).click();
    await page.locator('#toasts').getByText('Database unavailable.').waitFor();
    await expect(dialog.getByRole('radio', { name: /Restricted/ }).isChecked()).resolves.toBe(true);
    await page.unroute('**/visibility');
    expect(problems.filter((p) => !p.includes('503'))).toEqual([]);
    await context.close();

    const outside = await browser.newContext();
    const shared = await outside.newPage();
    const scripts: string[] = [];
    shared.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    const res = await shared.goto(url);
    expect(res?.status()).toBe(200);
    await shared.getByRole('heading', { name: TITLE }).waitFor();
    await shared.getByText('Call the on-call lead.').waitFor();
    await expect(shared.locator('script').count()).resolves.toBe(0);
    await expect(shared.locator('nav, .sidebar').count()).resolves.toBe(0);
    expect(scripts).toEqual([]);
    await outside.close();

    const seen = await signedInPage(browser, app.url, colleague.cookie);
    await seen.page.goto(`${app.url}/knowledge-base?view=list`);
    await seen.page.getByRole('heading', { name: 'Knowledge Base' }).waitFor();
    await expect(seen.page.getByText(TITLE).count()).resolves.toBe(0);
    const direct = await seen.page.goto(`${app.url}/knowledge-base/${item.id}`);
    expect(direct?.status()).toBe(404);
    await seen.context.close();
  });
});
