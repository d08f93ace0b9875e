import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servers } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInContext, isBlockedWorkerNote } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';
import { closedPort, silentPort } from '../servers/loopback';

let app: RunningApp;
let browser: Browser;
let cookie: string;
const contexts: BrowserContext[] = [];
const problems: string[] = [];

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 768 };

async function openTable(viewport: { width: number; height: number }, query = ''): Promise<Page> {
  const context = await signedInContext(browser, app.url, cookie, { viewport });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !isBlockedWorkerNote(m.text())) problems.push(m.text());
  });
  await page.goto(`${app.url}/infrastructure${query}`);
  await page.locator('app-island[data-name="ServerTable"][data-hydrated] .server-table[data-loaded]').waitFor();
  return page;
}

/** The row (or card) of the server named exactly `name`. */
const rowOf = (page: Page, name: string) =>
  page.locator('tbody tr').filter({ has: page.locator('.server-cell__name').getByText(name, { exact: true }) });

/** The visible text of each cell of a row, by column (hidden cells left out). */
const visibleCells = (page: Page, name: string) =>
  rowOf(page, name).evaluate((tr) =>
    Object.fromEntries(
      [...tr.querySelectorAll<HTMLElement>('td[data-column]')]
        .filter((td) => td.getClientRects().length > 0)
        .map((td) => [td.dataset.column, td.innerText.replace(/\s+/g, ' ').trim()]),
    ),
  );

describe.skipIf(!hasBrowser)('infrastructure: honest values, cards on phones, the Customize View menu', () => {
  beforeAll(async () => {
    // About the pages, not when a server goes offline: one failed check is enough.
    app = await startApp({ HEALTH_CHECK_FAILURES: '1' });
    const user = await createSignedInUser(app.db);
    cookie = user.cookie;
    browser = await sharedBrowser();
    await app.db.insert(servers).values([
      { name: 'ux-web-10', ipAddress: '127.0.0.1', environment: 'production', status: 'online' },
      {
        name: 'ux-web-2',
        ipAddress: '127.0.0.2',
        environment: 'staging',
        status: 'warning',
        cpuUsage: 42,
        memoryUsage: 91,
        uptime: 90061,
        metricsUpdatedAt: new Date(),
      },
      { name: 'UX-web-1', hostname: 'ux-web-1.corp.example.com', environment: 'development', status: 'offline' },
    ]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await app?.stop();
  });

  it('at 1366×768: a table in natural order, "—" where nothing was pushed, the last check in its own column', async () => {
    const page = await openTable(DESKTOP, '?q=ux-web');
    expect(await page.locator('tbody .server-cell__name').allTextContents()).toEqual([
      'UX-web-1',
      'ux-web-2',
      'ux-web-10',
    ]);
    await page.getByRole('button', { name: 'Server', exact: true }).click();
    await page.getByRole('button', { name: 'Server', exact: true }).click();
    // The server sorts: wait for its page.
    await expect
      .poll(() => page.locator('tbody .server-cell__name').allTextContents())
      .toEqual(['ux-web-10', 'ux-web-2', 'UX-web-1']);
    expect(await page.locator('thead').isVisible()).toBe(true);
    expect(await visibleCells(page, 'ux-web-10')).toMatchObject({
      cpu: '—',
      memory: '—',
      uptime: '—',
      lastCheck: '—',
    });
    expect(await visibleCells(page, 'ux-web-2')).toMatchObject({ cpu: '42%', memory: '91%', uptime: '1d 1h' });
    await page.close();
  });

  it('at 360×740: one card per server with name, address, status, environment and actions, no sideways scroll', async () => {
    const page = await openTable(PHONE, '?q=ux-web');
    expect(await page.locator('thead').isVisible()).toBe(false);
    expect(await visibleCells(page, 'ux-web-2')).toEqual({
      server: 'ux-web-2 127.0.0.2',
      status: 'warning',
      environment: 'staging',
      actions: '',
    });
    expect((await visibleCells(page, 'UX-web-1')).server).toBe('UX-web-1 ux-web-1.corp.example.com');
    const card = rowOf(page, 'ux-web-2');
    const box = (await card.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    const actions = card.locator('.server-actions .icon-button');
    // View, Edit, Create build document (issue 23), Run check, Delete: each a full touch target, all on the card.
    expect(await actions.count()).toBe(5);
    for (const action of await actions.all()) {
      const b = (await action.boundingBox())!;
      expect(b.width).toBeGreaterThanOrEqual(44);
      expect(b.height).toBeGreaterThanOrEqual(44);
      expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('link', { name: 'View ux-web-2' }).waitFor();
    await page.getByRole('link', { name: 'Create build document for ux-web-2' }).waitFor();
    await page.close();
  });

  it('closes Customize View on Escape and on a click outside, giving the focus back to its trigger', async () => {
    const page = await openTable(DESKTOP);
    const menu = page.locator('details.server-columns');
    const trigger = menu.locator('summary');
    const isOpen = () => menu.evaluate((d) => (d as HTMLDetailsElement).open);
    const triggerFocused = () => trigger.evaluate((s) => document.activeElement === s);

    await trigger.click();
    await page.getByRole('checkbox', { name: 'OS' }).focus();
    await page.keyboard.press('Escape');
    expect(await isOpen()).toBe(false);
    expect(await triggerFocused()).toBe(true);

    await trigger.click();
    expect(await isOpen()).toBe(true);
    await page.getByRole('heading', { name: /^Servers \(/ }).click();
    expect(await isOpen()).toBe(false);
    expect(await triggerFocused()).toBe(true);

    // A click on another control closes the menu and leaves the focus there.
    await trigger.click();
    await page.getByRole('searchbox', { name: 'Search servers' }).click();
    expect(await isOpen()).toBe(false);
    expect(
      await page.getByRole('searchbox', { name: 'Search servers' }).evaluate((e) => document.activeElement === e),
    ).toBe(true);
    await page.close();
  });

  it('reports what Check now found: the probe’s error, or that a server in maintenance was not probed', async () => {
    const port = await closedPort();
    await app.db.insert(servers).values([
      { name: 'ux-db-02', ipAddress: '127.0.0.1', monitorPort: port, status: 'online' },
      { name: 'ux-db-03', ipAddress: '127.0.0.1', monitorPort: port, status: 'maintenance' },
    ]);
    const page = await openTable(DESKTOP, '?q=ux-db');
    await page.getByRole('button', { name: 'Run health check on ux-db-02' }).click();
    await page.getByText('ux-db-02 is offline: connection refused', { exact: true }).waitFor();
    await page
      .locator('tbody tr')
      .filter({ has: page.locator('.server-cell__name').getByText('ux-db-02', { exact: true }) })
      .locator('td[data-column="status"]', { hasText: 'offline' })
      .waitFor();
    await page.getByRole('button', { name: 'Run health check on ux-db-03' }).click();
    await page.getByText('ux-db-03 is in maintenance: it was not probed.', { exact: true }).waitFor();
    await page.close();
  });

  it('shows the first check of a server just added once it ends, even when the probe outlasts the answer', async () => {
    const silent = await silentPort();
    try {
      const page = await openTable(DESKTOP, '?q=ux-new');
      await page.getByRole('button', { name: 'Add Server', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Server' });
      await dialog.getByLabel('Server Name').fill('ux-new-silent');
      await dialog.getByLabel('IP Address').fill('127.0.0.1');
      await dialog.getByLabel('Monitor Port').fill(String(silent.port));
      await dialog.getByRole('button', { name: 'Add Server' }).click();
      await page.getByText('Server added successfully.').waitFor();
      const row = rowOf(page, 'ux-new-silent');
      expect(await row.locator('td[data-column="status"]').textContent()).toContain('unknown');
      expect(await row.locator('td[data-column="lastCheck"]').textContent()).toBe('—');
      // The probe times out after 3 s and is stored; the table asks for the server again a second later.
      await row.locator('td[data-column="status"]', { hasText: 'offline' }).waitFor({ timeout: 10_000 });
      expect(await row.locator('td[data-column="lastCheck"]').textContent()).not.toBe('—');
      await page.close();
    } finally {
      silent.close();
    }
  }, 30_000);

  it('says a ?server= link names no server, cleans the address, and hydrated every page without errors', async () => {
    const page = await openTable(PHONE, '?server=00000000-0000-4000-8000-000000000000');
    await page.getByRole('alert').filter({ hasText: 'That server does not exist or was deleted.' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.close();
    expect(problems).toEqual([]);
  });
});
