import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servers } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInContext, isBlockedWorkerNote } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let cookie: string;
const contexts: BrowserContext[] = [];
const problems: string[] = [];

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 768 };
const ENVIRONMENTS = ['production', 'staging', 'development'] as const;

/** 130 servers: rack-1 … rack-130 (natural order differs from the database's), environments in turn. */
const RACKS = Array.from({ length: 130 }, (_, i) => ({
  name: `rack-${i + 1}`,
  environment: ENVIRONMENTS[i % 3],
  status: 'unknown' as const,
}));
const rackNames = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `rack-${from + i}`);

async function open(options: { viewport: typeof DESKTOP; javaScriptEnabled?: boolean }, query = ''): Promise<Page> {
  const context = await signedInContext(browser, app.url, cookie, options);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !isBlockedWorkerNote(m.text())) problems.push(m.text());
  });
  await page.goto(`${app.url}/infrastructure${query}`);
  return page;
}

const hydrated = (page: Page) =>
  page.locator('app-island[data-name="ServerTable"][data-hydrated] .server-table[data-loaded]').waitFor();
const names = (page: Page) => page.locator('tbody .server-cell__name').allTextContents();
const pagerText = (page: Page) => page.locator('.server-pager .muted').textContent();

describe.skipIf(!hasBrowser)('the server table pages on the server', () => {
  beforeAll(async () => {
    app = await startApp();
    const user = await createSignedInUser(app.db);
    cookie = user.cookie;
    await app.db.insert(servers).values(RACKS);
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await app?.stop();
  });

  for (const viewport of [PHONE, DESKTOP]) {
    it(`at ${viewport.width}px: next page, search as you type and a filter, each one page from the API`, async () => {
      const page = await open({ viewport });
      await hydrated(page);
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/servers')) asked.push(new URL(r.url()).search);
      });
      expect(await names(page)).toEqual(rackNames(1, 50));
      expect(await pagerText(page)).toBe('Showing 1–50 of 130');

      await page.getByRole('link', { name: 'Next' }).click();
      await expect.poll(() => names(page)).toEqual(rackNames(51, 100));
      expect(await pagerText(page)).toBe('Showing 51–100 of 130');
      expect(new URL(page.url()).search).toBe('?page=2');

      await page.getByRole('searchbox', { name: 'Search servers' }).pressSequentially('rack-12');
      await expect.poll(() => names(page)).toEqual(['rack-12', ...rackNames(120, 129)]);
      expect(await page.getByRole('heading', { name: 'Servers (11)' }).isVisible()).toBe(true);
      // Typing waits for a pause: not a request per key.
      expect(asked.filter((q) => q.includes('q=')).length).toBeLessThan('rack-12'.length);

      await page.getByLabel('Filter by environment').selectOption('staging');
      // rack-n is staging when n % 3 === 2: 122, 125, 128.
      await expect.poll(() => names(page)).toEqual(['rack-122', 'rack-125', 'rack-128']);
      expect(new URL(page.url()).search).toBe('?q=rack-12&environment=staging');
      expect(asked.at(-1)).toBe('?q=rack-12&environment=staging&page=1&pageSize=50');
      // The phone shows cards without sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.close();
    });
  }

  it('without JavaScript: the first page, the Next and Previous links and the filter form work', async () => {
    const page = await open({ viewport: PHONE, javaScriptEnabled: false });
    expect(await names(page)).toEqual(rackNames(1, 50));
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/page=2/);
    expect(await names(page)).toEqual(rackNames(51, 100));
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/page=3/);
    expect(await names(page)).toEqual(rackNames(101, 130));
    await page.getByRole('link', { name: 'Previous' }).click();
    await page.waitForURL(/page=2/);
    expect(await names(page)).toEqual(rackNames(51, 100));

    await page.getByLabel('Filter by environment').selectOption('development');
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('rack-1');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/environment=development/);
    // rack-n is development when n % 3 === 0, among rack-1, rack-10…19, rack-100…130.
    expect(await names(page)).toEqual([
      'rack-12',
      'rack-15',
      'rack-18',
      ...rackNames(100, 130).filter((n) => Number(n.slice(5)) % 3 === 0),
    ]);
    await page.close();
  });

  it('showed every page above without errors or warnings', () => {
    expect(problems).toEqual([]);
  });
});
