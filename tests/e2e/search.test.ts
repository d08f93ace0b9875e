import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { documents } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
const ids: Record<string, string> = {};

async function openPage(path = '/team'): Promise<Page> {
  const page = await context.newPage();
  // Only where the search sends the user matters here: the destination page is answered by a stand-in.
  await page.route(/\/knowledge-base\/[0-9a-f-]{36}\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<p>opened</p>' }),
  );
  await page.goto(app.url + path);
  return page;
}

describe.skipIf(!hasBrowser)('global search by keyboard', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    const user = await createSignedInUser(app.db);
    const rows = await app.db
      .insert(documents)
      .values([
        { space: 'knowledge', title: 'Zabbix agent rollout', content: 'Monitoring agent steps.' },
        { space: 'knowledge', title: 'Weekly notes', content: 'We talked about zabbix upgrades.' },
      ])
      .returning({ id: documents.id, title: documents.title });
    for (const r of rows) ids[r.title] = r.id;
    context = await signedInContext(browser, app.url, user.cookie);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('shows the hints, lists results after the delay, moves with the arrows and opens with Enter', async () => {
    const page = await openPage();
    const box = page.getByRole('combobox', { name: 'Search documents' });
    const list = page.getByRole('listbox', { name: 'Search results' });
    await box.focus();
    await expect(list.getByText('Start typing to search...').isVisible()).resolves.toBe(true);
    await page.keyboard.type('zabb');
    await expect(list.getByText('Searching...').isVisible()).resolves.toBe(true);
    const options = list.getByRole('option');
    await options.first().waitFor({ timeout: 10_000 });
    expect(await options.allInnerTexts()).toEqual([
      expect.stringContaining('Zabbix agent rollout'),
      expect.stringContaining('Weekly notes'),
    ]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options.nth(1).getAttribute('id'));
    await page.keyboard.press('ArrowUp');
    expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
    const nav = page.waitForRequest(
      (r) =>
        r.isNavigationRequest() &&
        r.url() === `${app.url}/knowledge-base/${ids['Zabbix agent rollout']}/zabbix-agent-rollout`,
      { timeout: 15_000 },
    );
    await page.keyboard.press('Enter');
    await nav;
    await page.close();
  });

  it('Enter before the list has loaded opens the first result', async () => {
    const page = await openPage();
    await page.getByRole('combobox', { name: 'Search documents' }).focus();
    await page.keyboard.type('weekly');
    const nav = page.waitForRequest(
      (r) => r.isNavigationRequest() && r.url() === `${app.url}/knowledge-base/${ids['Weekly notes']}/weekly-notes`,
    );
    await page.keyboard.press('Enter');
    await nav;
    await page.close();
  });

  it('says "No documents found." and Escape clears and closes', async () => {
    const page = await openPage();
    const box = page.getByRole('combobox', { name: 'Search documents' });
    const list = page.getByRole('listbox', { name: 'Search results' });
    await box.focus();
    await page.keyboard.type('qwxyz');
    await list.getByText('No documents found.').waitFor();
    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('');
    expect(await list.isHidden()).toBe(true);
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await page.close();
  });

  it('works without JavaScript as a form to the results page', async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    await noJs.addCookies(await context.cookies());
    const page = await noJs.newPage();
    await page.goto(app.url + '/team');
    await page.getByRole('combobox', { name: 'Search documents' }).fill('zabbix');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.url}/search?q=zabbix`);
    await expect(page.getByRole('link', { name: 'Zabbix agent rollout' }).getAttribute('href')).resolves.toBe(
      `/knowledge-base/${ids['Zabbix agent rollout']}/zabbix-agent-rollout`,
    );
    await noJs.close();
  });
});
