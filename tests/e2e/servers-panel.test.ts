import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDocuments } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { type RunningApp, startApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/**
 * Issue 23: an open runbook shows its server's health change without a reload, and a hidden tab asks nothing. The
 * server sets a 1 s refresh for this test (SERVERS_PANEL_POLL_MS); people get the 30 s default.
 */

const POLL_MS = 1000;

let app: RunningApp;
let browser: Browser;
let user: TestUser;
let serverId: string;
let runbookId: string;
let bareId: string;

/** A JSON call as the signed-in user (same origin, as the browser would send it). */
async function call(method: string, path: string, body: unknown) {
  const res = await fetch(app.url + path, {
    method,
    headers: { Cookie: user.cookie, Origin: app.url, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return res.json();
}

const setHealth = (status: string, cpuUsage: number) =>
  call('PUT', `/api/servers/${serverId}/metrics`, { status, cpuUsage, memoryUsage: 30, diskUsage: 40, uptime: 93600 });

/** Counts the page's panel refreshes. */
function countRefreshes(page: Page): { readonly n: number } {
  const seen = { n: 0 };
  page.on('request', (r) => {
    if (r.url().endsWith('/servers-panel')) seen.n++;
  });
  return seen;
}

/** Makes the tab look hidden or visible to the page's script, as a browser switching tabs does. */
const setVisibility = (page: Page, state: 'hidden' | 'visible') =>
  page.evaluate((s) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasBrowser)('the Servers panel of an open runbook', () => {
  beforeAll(async () => {
    app = await startApp({ SERVERS_PANEL_POLL_MS: String(POLL_MS) });
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Grace', lastName: 'Hopper' });
    serverId = (await call('POST', '/api/servers', { name: 'web1', ipAddress: '127.0.0.1' })).id;
    const runbook = await createItem(
      app.db,
      'knowledge',
      { title: 'Restart web1', content: 'Connect with `ssh {{server:web1.ipAddress}}`.' },
      user.id,
    );
    runbookId = runbook.id;
    bareId = (await createItem(app.db, 'knowledge', { title: 'No servers here', content: 'Text.' }, user.id)).id;
    await app.db.insert(serverDocuments).values({ serverId, documentId: runbookId, documentType: 'knowledge-base' });
    await setHealth('online', 12);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("shows the server's new health without a reload, and asks at most once per interval", async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, user.cookie);
    const refreshes = countRefreshes(page);
    await page.goto(`${app.url}/knowledge-base/${runbookId}`);
    await expect.poll(() => page.locator('code').first().textContent()).toBe('ssh 127.0.0.1');
    const panel = page.getByRole('region', { name: 'Servers' });
    await panel.getByText('online', { exact: true }).waitFor();
    await panel.getByText('12%', { exact: true }).waitFor();
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    const openedAt = Date.now();

    await setHealth('offline', 97);
    await panel.getByText('offline', { exact: true }).waitFor({ timeout: 5 * POLL_MS });
    await panel.getByText('97%', { exact: true }).waitFor();
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);

    await wait(2 * POLL_MS);
    const elapsed = Date.now() - openedAt;
    expect(refreshes.n).toBeGreaterThanOrEqual(1);
    expect(refreshes.n).toBeLessThanOrEqual(Math.floor(elapsed / POLL_MS) + 1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on a 360 px phone the servers come before the text; at 1366 px beside it', async () => {
    for (const [width, height, before] of [
      [360, 740, true],
      [1366, 768, false],
    ] as const) {
      const { context, page } = await signedInPage(browser, app.url, user.cookie, { viewport: { width, height } });
      await page.goto(`${app.url}/knowledge-base/${runbookId}`);
      const panel = (await page.getByRole('region', { name: 'Servers' }).boundingBox())!;
      const text = (await page.locator('.doc__body').boundingBox())!;
      expect(panel.y < text.y, `${width} px`).toBe(before);
      expect(panel.x + panel.width).toBeLessThanOrEqual(width);
      if (!before) expect(panel.x).toBeGreaterThan(text.x + text.width - 1);
      await context.close();
    }
  });

  it('a hidden tab asks nothing; back in view it asks at once', async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, user.cookie);
    const refreshes = countRefreshes(page);
    await page.goto(`${app.url}/knowledge-base/${runbookId}`);
    const panel = page.getByRole('region', { name: 'Servers' });
    await panel.waitFor();
    await setVisibility(page, 'hidden');
    const before = refreshes.n;
    await setHealth('warning', 55);
    await wait(3 * POLL_MS);
    expect(refreshes.n).toBe(before);
    expect(await panel.getByText('warning', { exact: true }).count()).toBe(0);

    await setVisibility(page, 'visible');
    await panel.getByText('warning', { exact: true }).waitFor({ timeout: POLL_MS / 2 });
    expect(refreshes.n).toBe(before + 1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the category view's preview shows the same facts and fills the placeholders", async () => {
    await setHealth('maintenance', 33);
    const { context, page, problems } = await signedInPage(browser, app.url, user.cookie);
    await page.goto(`${app.url}/knowledge-base?view=category`);
    await page.locator('app-island[data-name="CategoryView"][data-hydrated]').waitFor();
    const group = page.locator('details.tree__group', { has: page.locator('summary', { hasText: 'Uncategorized' }) });
    if ((await group.getAttribute('open')) === null) await group.locator('summary').click();
    await group.getByRole('link', { name: 'Restart web1', exact: true }).click();
    const preview = page.getByRole('article', { name: 'Preview' });
    await preview.getByText('ssh 127.0.0.1').waitFor();
    const servers = preview.getByRole('region', { name: 'Servers' });
    await servers.getByRole('link', { name: 'web1' }).waitFor();
    expect(await servers.getByRole('link', { name: 'web1' }).getAttribute('href')).toBe(`/infrastructure/${serverId}`);
    await servers.getByText('maintenance', { exact: true }).waitFor();
    await servers.getByText('33%', { exact: true }).waitFor();
    await servers.getByText('1d 2h', { exact: true }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("keeps a keyboard user's focus on the server link they are on when the panel refreshes", async () => {
    await setHealth('online', 21);
    const { context, page, problems } = await signedInPage(browser, app.url, user.cookie);
    await page.goto(`${app.url}/knowledge-base/${runbookId}`);
    const panel = page.getByRole('region', { name: 'Servers' });
    await panel.getByText('21%', { exact: true }).waitFor();
    const link = panel.getByRole('link', { name: 'web1' });
    await link.focus();
    await setHealth('warning', 64);
    await panel.getByText('64%', { exact: true }).waitFor({ timeout: 5 * POLL_MS });
    const focused = () =>
      page.evaluate(() => {
        const a = document.activeElement;
        return a?.closest('#servers-panel') ? a.getAttribute('href') : null;
      });
    expect(await focused()).toBe(`/infrastructure/${serverId}`);
    // A refresh that finds nothing changed leaves the list (and the focus) alone.
    await wait(2 * POLL_MS);
    expect(await focused()).toBe(`/infrastructure/${serverId}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the category view's preview refreshes the servers' state without a reload, and stops for another item", async () => {
    await setHealth('online', 44);
    const { context, page, problems } = await signedInPage(browser, app.url, user.cookie);
    const asked = { n: 0 };
    page.on('request', (r) => {
      if (r.url().endsWith(`/api/knowledge-base/${runbookId}/servers`)) asked.n++;
    });
    await page.goto(`${app.url}/knowledge-base?view=category`);
    await page.locator('app-island[data-name="CategoryView"][data-hydrated]').waitFor();
    const group = page.locator('details.tree__group', { has: page.locator('summary', { hasText: 'Uncategorized' }) });
    if ((await group.getAttribute('open')) === null) await group.locator('summary').click();
    await group.getByRole('link', { name: 'Restart web1', exact: true }).click();
    const preview = page.getByRole('article', { name: 'Preview' });
    const servers = preview.getByRole('region', { name: 'Servers' });
    await servers.getByText('44%', { exact: true }).waitFor();
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    const openedAt = Date.now();

    await setHealth('offline', 91);
    await servers.getByText('offline', { exact: true }).waitFor({ timeout: 5 * POLL_MS });
    await servers.getByText('91%', { exact: true }).waitFor();
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await wait(POLL_MS);
    expect(asked.n).toBeGreaterThanOrEqual(1);
    expect(asked.n).toBeLessThanOrEqual(Math.floor((Date.now() - openedAt) / POLL_MS) + 1);

    // Another item (no linked servers): the old item's refresh stops and the new one asks nothing.
    await group.getByRole('link', { name: 'No servers here', exact: true }).click();
    await preview.getByRole('heading', { name: 'No servers here' }).waitFor();
    const after = asked.n;
    await wait(3 * POLL_MS);
    expect(asked.n).toBe(after);
    expect(await preview.getByRole('region', { name: 'Servers' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a page without linked servers has no panel and asks nothing', async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, user.cookie);
    const refreshes = countRefreshes(page);
    await page.goto(`${app.url}/knowledge-base/${bareId}`);
    await page.getByRole('heading', { name: 'No servers here' }).waitFor();
    await wait(2 * POLL_MS);
    expect(await page.getByRole('region', { name: 'Servers' }).count()).toBe(0);
    expect(refreshes.n).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
