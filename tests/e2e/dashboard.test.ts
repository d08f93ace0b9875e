import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { servers } from '../../src/db/schema';
import { hasBrowser, htmxSettled, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;

describe.skipIf(!hasBrowser)('dashboard in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    // About the pages, not when a server goes offline: one failed check is enough.
    app = await startApp({ HEALTH_CHECK_FAILURES: '1' });
    browser = await sharedBrowser();
    const user = await createSignedInUser(app.db);
    await app.db.insert(servers).values([
      { name: 'web-prod-01', ipAddress: '127.0.0.1', monitorPort: 1, environment: 'production', status: 'online' },
      { name: 'stage-db-01', ipAddress: '127.0.0.1', monitorPort: 1, environment: 'staging', status: 'online' },
    ]);
    context = await signedInContext(browser, app.url, user.cookie);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('loads no React, and the environment filter changes the rows and the URL', async () => {
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto(app.url + '/');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 }).isVisible()).resolves.toBe(true);
    expect(scripts.filter((s) => !/\/static\/build\/(boot|htmx)-/.test(s))).toEqual([]);
    const table = page.locator('#infra-overview table');
    await expect(table.getByText('web-prod-01').isVisible()).resolves.toBe(true);
    await page.getByLabel('Environment').selectOption('staging');
    await page.waitForURL(`${app.url}/?environment=staging`);
    await table.getByText('web-prod-01').waitFor({ state: 'detached' });
    await expect(table.getByText('stage-db-01').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('img', { name: 'Database server' }).count()).resolves.toBe(1);
    // The refresh button (inside the swapped-in overview) re-fetches with the same filter.
    await htmxSettled(page);
    const refreshed = page.waitForResponse(
      (r) => r.url() === `${app.url}/?environment=staging` && r.request().headers()['hx-request'] === 'true',
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await refreshed;
    await page.reload();
    await expect(page.getByLabel('Environment').inputValue()).resolves.toBe('staging');
    await expect(page.locator('#infra-overview').getByText('web-prod-01').count()).resolves.toBe(0);
    await page.close();
  });

  it('draws every icon from the one cached sprite file', async () => {
    const page = await context.newPage();
    const sprites: number[] = [];
    page.on('response', (r) => r.url().includes('/static/icons-') && sprites.push(r.status()));
    await page.goto(app.url + '/');
    await page.waitForLoadState('load');
    // A <use> whose symbol did not load draws nothing (no size); every icon shown must have one.
    const icons = await page
      .locator('svg use')
      .evaluateAll((uses) =>
        uses
          .filter((u) => u.closest('svg')!.getBoundingClientRect().width > 0)
          .map((u) => ({ href: u.getAttribute('href'), width: (u as SVGGraphicsElement).getBBox().width })),
      );
    expect(icons.length).toBeGreaterThan(10);
    expect(icons.filter((i) => !(i.width > 0))).toEqual([]);
    expect(sprites).toEqual([200]);
    await page.close();
  });

  it('Run Health Check probes the servers and shows the result in a toast', async () => {
    const page = await context.newPage();
    await page.goto(app.url + '/');
    await page.getByRole('button', { name: 'Run Health Check' }).click();
    const toast = page.locator('#toasts .toast');
    await toast.waitFor();
    await expect(toast.innerText()).resolves.toContain('Checked 2 servers: 0 online, 0 warning, 2 offline.');
    await expect(page.locator('#infra-overview').getByText('Offline').count()).resolves.toBe(2);
    await expect(page.locator('#dash-stats').getByText('2 offline').isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('quick actions land on the screen they name: the editor, the Auto Create KB panel, the Add Server dialog', async () => {
    const page = await context.newPage();
    const editor = (title: string) => async () => {
      await page.getByRole('heading', { name: title }).waitFor();
      await page.getByLabel('Title', { exact: true }).waitFor();
    };
    const actions: [string, string, () => Promise<unknown>][] = [
      ['Create Knowledge Base', '/knowledge-base/new', editor('Create Knowledge Base')],
      ['Create How-To Guide', '/knowledge-base/new', editor('Create How-To Guide')],
      ['Auto Create KB', '/knowledge-base', () => page.locator('#auto-create').getByLabel('Content').waitFor()],
      ['Create Build Document', '/knowledge-base/new', editor('Create Build Document')],
      ['Add Server', '/infrastructure', () => page.getByRole('dialog', { name: 'Add Server' }).waitFor()],
      ['View All', '/knowledge-base', () => page.getByRole('heading', { name: 'Knowledge Base', level: 1 }).waitFor()],
    ];
    for (const [label, path, landed] of actions) {
      await page.goto(app.url + '/');
      await page.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
      await landed();
    }
    await page.close();
  });
});
