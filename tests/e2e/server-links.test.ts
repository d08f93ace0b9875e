import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { servers } from '../../src/db/schema';
import { createItem, getItem } from '../../src/knowledge/service';
import { linkedServersOf } from '../../src/runbooks/service';
import { hasBrowser, signedInPage as openSignedInPage, sharedBrowser } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Issue 23 in the editor: link servers with the Servers picker and from the "Mentioned servers" strip, then save. */

let app: RunningApp;
let browser: Browser;
let user: TestUser;

const signedInPage = () => openSignedInPage(browser, app.url, user.cookie, { viewport: { width: 1400, height: 900 } });
const hydrated = (page: Page) => page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
const chips = (page: Page) => page.getByRole('list', { name: 'Linked servers' }).getByRole('listitem');

describe.skipIf(!hasBrowser)('linking servers in the editor (issue 23), in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Grace', lastName: 'Hopper' });
    await app.db.insert(servers).values([
      { name: 'web1', hostname: 'web1.corp.example.com', ipAddress: '127.0.0.1', status: 'online' },
      { name: 'web10', ipAddress: '127.0.0.10' },
      { name: 'db2', ipAddress: '127.0.0.2', status: 'offline' },
    ]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('picks a server by keyboard, links one the text mentions, and Save stores both', async () => {
    const item = await createItem(
      app.db,
      'knowledge',
      { title: 'Restart the web tier', content: 'Drain first.' },
      user.id,
    );
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base/${item.id}/edit`);
    await hydrated(page);
    await expect(page.getByText('No servers linked.').isVisible()).resolves.toBe(true);

    // The picker: search by IP (asking for at most 20 matches); the arrow keys move through them, Enter picks one.
    const searches: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/servers') searches.push(new URL(r.url()).search);
    });
    const search = page.getByRole('combobox', { name: 'Servers' });
    await search.fill('127.0.0.1');
    const matches = page.getByRole('listbox', { name: 'Matching servers' }).getByRole('option');
    await matches.filter({ hasText: 'web10' }).waitFor();
    expect(searches).toEqual(['?q=127.0.0.1&limit=20']);
    expect((await matches.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'web1 127.0.0.1',
      'web10 127.0.0.10',
    ]);
    const selected = () =>
      page.getByRole('listbox', { name: 'Matching servers' }).getByRole('option', { selected: true }).innerText();
    expect(await selected()).toMatch(/^web1\s/);
    await search.press('ArrowDown');
    expect(await selected()).toMatch(/^web10\s/);
    await search.press('ArrowUp');
    expect(await selected()).toMatch(/^web1\s/);
    await search.press('Enter');
    await chips(page).filter({ hasText: 'web1' }).waitFor();
    expect(await chips(page).allInnerTexts()).toEqual([expect.stringMatching(/^web1\s+online/)]);
    expect(await search.inputValue()).toBe('');

    // The text names db2 (by IP) and web1 (linked already): only db2 is suggested, once typing rests.
    await page.getByRole('tab', { name: 'Markdown' }).click();
    await page
      .getByRole('textbox', { name: 'Content' })
      .fill('Drain web1, then restart the database on 127.0.0.2:5432.');
    const strip = page.getByRole('region', { name: 'Mentioned servers' });
    await strip.getByRole('button', { name: 'Link db2' }).waitFor({ timeout: 10_000 });
    expect(await strip.getByRole('button', { name: 'Link web1' }).count()).toBe(0);
    await strip.getByRole('button', { name: 'Link db2' }).click();
    await strip.waitFor({ state: 'detached' });
    expect(await chips(page).allInnerTexts()).toEqual([
      expect.stringMatching(/^web1\s+online/),
      expect.stringMatching(/^db2\s+offline/),
    ]);

    // Remove one and put it back, then Save.
    await page.getByRole('button', { name: 'Remove server web1' }).click();
    expect(await chips(page).count()).toBe(1);
    await search.fill('web1');
    await matches.first().waitFor();
    await matches.filter({ hasText: /^web1\s+127\.0\.0\.1$/ }).click();
    await chips(page).nth(1).waitFor();
    // The draft keeps them over a reload.
    await page.reload();
    await hydrated(page);
    await page.getByText(/Restored your unsaved draft/).waitFor();
    expect((await chips(page).allInnerTexts()).map((t) => t.split(/\s/)[0])).toEqual(['db2', 'web1']);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(
      (url) => url.pathname.startsWith(`/knowledge-base/${item.id}/`) && !url.pathname.endsWith('/edit'),
    );

    expect((await linkedServersOf(app.db, item.id)).map((s) => s.name)).toEqual(['db2', 'web1']);
    expect((await getItem(app.db, 'knowledge', item.id))?.version).toBe(2);
    const answer = await page.evaluate(async (id) => (await fetch(`/api/knowledge-base/${id}`)).json(), item.id);
    expect(answer.servers.map((s: { name: string }) => s.name)).toEqual(['db2', 'web1']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Link all and Dismiss on a new article; the new article saves with the linked servers', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base/new?type=knowledge-base`);
    await hydrated(page);
    await page.getByLabel('Title', { exact: true }).fill('Database failover');
    await page.getByRole('tab', { name: 'Markdown' }).click();
    const content = page.getByRole('textbox', { name: 'Content' });
    await content.fill('Check **web10** first.');
    const strip = page.getByRole('region', { name: 'Mentioned servers' });
    await strip.getByRole('button', { name: 'Link web10' }).waitFor({ timeout: 10_000 });
    await strip.getByRole('button', { name: 'Dismiss mentioned servers' }).click();
    await strip.waitFor({ state: 'detached' });
    // A server not dismissed yet is offered again; Link all takes every one shown.
    await content.fill('Check **web10** first, then fail over db2 and web1.corp.example.com.');
    await strip.getByRole('button', { name: 'Link db2' }).waitFor({ timeout: 10_000 });
    expect(await strip.getByRole('button', { name: 'Link web10' }).count()).toBe(0);
    await strip.getByRole('button', { name: 'Link all' }).click();
    await strip.waitFor({ state: 'detached' });
    expect((await chips(page).allInnerTexts()).map((t) => t.split(/\s/)[0])).toEqual(['db2', 'web1']);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/knowledge-base\/[0-9a-f-]{36}\//);
    const id = /\/knowledge-base\/([0-9a-f-]{36})\//.exec(page.url())![1];
    expect((await linkedServersOf(app.db, id)).map((s) => s.name)).toEqual(['db2', 'web1']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Auto Create KB lists the servers the notes name, ticked; the one left ticked is linked', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base`);
    await page.getByRole('link', { name: 'Get Started' }).click();
    await page
      .getByLabel('Content')
      .fill('restart nginx on web1\nthen check the database at 127.0.0.2\nRestart-Service nginx');
    await page.getByRole('button', { name: 'Generate Preview' }).click();
    const offered = page.getByRole('group', { name: 'Link to the servers it mentions' });
    await offered.waitFor();
    const box = (name: string) => offered.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) });
    expect(await offered.getByRole('checkbox').count()).toBe(2);
    await expect(box('db2').isChecked()).resolves.toBe(true);
    await expect(box('web1').isChecked()).resolves.toBe(true);
    await box('db2').uncheck();
    await page.getByRole('button', { name: 'Save Document' }).click();
    await page.waitForURL(/\/knowledge-base\/[0-9a-f-]{36}\/edit$/);
    const id = page.url().split('/').at(-2)!;
    expect((await linkedServersOf(app.db, id)).map((s) => s.name)).toEqual(['web1']);
    // The editor opens with it linked.
    await hydrated(page);
    expect((await chips(page).allInnerTexts()).map((t) => t.split(/\s/)[0])).toEqual(['web1']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
