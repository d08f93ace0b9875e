import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { healthChecks, servers, userPreferences } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInContext, isBlockedWorkerNote } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let listener: NetServer;
let openPort: number;
const problems: string[] = [];

async function addServer(values: Partial<typeof servers.$inferInsert> & { name: string }) {
  const [row] = await app.db.insert(servers).values(values).returning();
  return row;
}

/** Opens /infrastructure (+ query) and waits for the table island to hydrate and load the whole list. */
async function openTable(query = '', prepare?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await context.newPage();
  await prepare?.(page);
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !isBlockedWorkerNote(m.text())) problems.push(m.text());
  });
  await page.goto(`${app.url}/infrastructure${query}`);
  await page.locator('app-island[data-name="ServerTable"][data-hydrated] .server-table[data-loaded]').waitFor();
  return page;
}

const names = (page: Page) => page.locator('tbody .server-cell__name').allTextContents();

describe.skipIf(!hasBrowser)('infrastructure in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    const user = await createSignedInUser(app.db);
    await app.db.insert(userPreferences).values({ userId: user.id, timezone: 'Australia/Sydney' });
    browser = await sharedBrowser();
    // The browser's own timezone is neither UTC nor the saved one: the table must use the saved one.
    context = await signedInContext(browser, app.url, user.cookie, { timezoneId: 'America/New_York' });
    listener = createServer((s) => s.end());
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    openPort = (listener.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => (listener ? listener.close(() => r()) : r()));
    await app?.stop();
  });

  it('adds a server through the dialog, refusing an empty name first', async () => {
    const page = await openTable();
    await page.getByRole('button', { name: 'Add Your First Server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Server' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    await dialog.getByText('Validation Error: Please check your input and try again.').waitFor();
    await dialog.getByText('Server name is required.').waitFor();

    await dialog.getByLabel('Server Name').fill('e2e-web-01');
    await dialog.getByLabel('IP Address').fill('127.0.0.1');
    await dialog.getByLabel('Monitor Port').fill(String(openPort));
    await dialog.getByLabel('Environment').selectOption('production');
    await dialog.getByLabel('Domain').selectOption('au.corp.example.com');
    await dialog.getByLabel('Operating System').selectOption('Ubuntu 24.04 LTS');
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    await page.getByText('Server added successfully.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await names(page)).toEqual(['e2e-web-01']);
    await page.getByRole('heading', { name: 'Servers (1)' }).waitFor();
    const [row] = await app.db.select().from(servers).where(eq(servers.name, 'e2e-web-01'));
    expect(row).toMatchObject({
      ipAddress: '127.0.0.1',
      monitorPort: openPort,
      environment: 'production',
      domain: 'au.corp.example.com',
      operatingSystem: 'Ubuntu 24.04 LTS',
    });

    await page.getByRole('button', { name: 'Edit e2e-web-01' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Server' });
    await expect(edit.getByLabel('Server Name').inputValue()).resolves.toBe('e2e-web-01');
    await edit.getByLabel('Team Owner').fill('Web Platform');
    await edit.getByLabel('Tags (comma-separated)').fill('PCI, edge, <b>');
    await edit.getByRole('button', { name: 'Update Server' }).click();
    await edit.getByText('Tag "<b>" may use letters, digits, spaces and . _ : / - only.').waitFor();
    await edit.getByLabel('Tags (comma-separated)').fill('PCI, edge');
    await edit.getByRole('button', { name: 'Update Server' }).click();
    await page.getByText('Server updated successfully.').waitFor();
    const [after] = await app.db.select().from(servers).where(eq(servers.name, 'e2e-web-01'));
    expect(after.teamOwner).toBe('Web Platform');
    expect(after.tags).toEqual(['pci', 'edge']);
    await page.close();
  });

  it('sorts by a column header', async () => {
    const metricsUpdatedAt = new Date();
    await addServer({ name: 'sort-b', cpuUsage: 50, metricsUpdatedAt });
    await addServer({ name: 'sort-a', cpuUsage: 80, metricsUpdatedAt });
    await addServer({ name: 'sort-c', cpuUsage: 10, metricsUpdatedAt });
    const page = await openTable('?q=sort-');
    await expect.poll(() => names(page)).toEqual(['sort-a', 'sort-b', 'sort-c']);
    const cpu = page.getByRole('button', { name: 'CPU' });
    await cpu.click();
    expect(await page.locator('th[data-column="cpu"]').getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => names(page)).toEqual(['sort-c', 'sort-b', 'sort-a']);
    await cpu.click();
    await expect.poll(() => names(page)).toEqual(['sort-a', 'sort-b', 'sort-c']);
    await page.close();
  });

  it('filters by search, environment and status, and keeps the filters in the address', async () => {
    await addServer({ name: 'flt-prod', environment: 'production', status: 'online', teamOwner: 'Storage team' });
    await addServer({ name: 'flt-stage', environment: 'staging', status: 'warning' });
    await addServer({ name: 'flt-dev', environment: 'development', status: 'online' });
    const page = await openTable();
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('flt-');
    await expect.poll(() => names(page)).toEqual(['flt-dev', 'flt-prod', 'flt-stage']);
    await page.getByLabel('Filter by environment').selectOption('staging');
    await expect.poll(() => names(page)).toEqual(['flt-stage']);
    expect(new URL(page.url()).search).toBe('?q=flt-&environment=staging');
    await page.getByLabel('Filter by environment').selectOption('');
    await page.getByLabel('Filter by status').selectOption('online');
    await expect.poll(() => names(page)).toEqual(['flt-dev', 'flt-prod']);
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('storage');
    await expect.poll(() => names(page)).toEqual(['flt-prod']);
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('no-such-server');
    await page.getByText('No servers found').waitFor();
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('flt-');
    await page.reload();
    await page.locator('app-island[data-name="ServerTable"][data-hydrated] .server-table[data-loaded]').waitFor();
    await expect.poll(() => names(page)).toEqual(['flt-dev', 'flt-prod']);
    await page.close();
  });

  it('hides a column, still hidden after reload, and resets to the defaults', async () => {
    const page = await openTable();
    await expect(page.locator('th[data-column="memory"]').count()).resolves.toBe(1);
    await expect(page.locator('th[data-column="os"]').count()).resolves.toBe(0);
    await page.getByText('Customize View').click();
    await page.getByRole('checkbox', { name: 'Memory' }).uncheck();
    await page.getByRole('checkbox', { name: 'OS' }).check();
    await page.locator('th[data-column="memory"]').waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('app-island[data-name="ServerTable"][data-hydrated] .server-table[data-loaded]').waitFor();
    await page.locator('th[data-column="os"]').waitFor();
    await expect(page.locator('th[data-column="memory"]').count()).resolves.toBe(0);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('server-table-columns')))!)).toMatchObject({
      memory: false,
      os: true,
    });
    await page.getByText('Customize View').click();
    await page.getByRole('button', { name: 'Reset to default' }).click();
    await page.getByText('Column visibility reset to default.').waitFor();
    await page.locator('th[data-column="memory"]').waitFor();
    await expect(page.locator('th[data-column="os"]').count()).resolves.toBe(0);
    await page.close();
  });

  it('runs a real health check from the row', async () => {
    const up = await addServer({ name: 'hc-up', ipAddress: '127.0.0.1', monitorPort: openPort });
    const page = await openTable('?q=hc-');
    const row = page.locator(`tr[data-row-id="${up.id}"]`);
    expect(await row.locator('td[data-column="status"]').textContent()).toContain('unknown');
    await page.getByRole('button', { name: 'Run health check on hc-up' }).click();
    await page.getByText(/^hc-up is online: answered in \d+ ms\.$/).waitFor();
    await row.locator('td[data-column="status"]', { hasText: 'online' }).waitFor();
    const checks = await app.db.select().from(healthChecks).where(eq(healthChecks.serverId, up.id));
    expect(checks.map((c) => c.status)).toEqual(['online']);
    await page.close();
  });

  it('highlights the row of a ?server= link for 5 s, then cleans the address', async () => {
    const target = await addServer({ name: 'zz-linked-target' });
    // The page's clock is the test's: the 5 s pass at once instead of in real time.
    const page = await openTable(`?server=${target.id}`, (p) => p.clock.install());
    const row = page.locator('tr[data-highlight]');
    expect(await row.getAttribute('data-row-id')).toBe(target.id);
    expect(new URL(page.url()).search).toBe(`?server=${target.id}`);
    await page.clock.runFor(5_000);
    await page.waitForFunction(() => !document.querySelector('tr[data-highlight]'));
    expect(new URL(page.url()).search).toBe('');
    await page.close();
  });

  it('opens the add dialog from ?create=server and deletes a server after confirmation', async () => {
    const doomed = await addServer({ name: 'del-me' });
    const page = await openTable('?create=server');
    const dialog = page.getByRole('dialog', { name: 'Add Server' });
    await dialog.waitFor();
    expect(new URL(page.url()).search).toBe('');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const nativeDialogs: string[] = [];
    page.on('dialog', (d) => {
      nativeDialogs.push(d.message());
      void d.dismiss();
    });
    const deleteButton = page.getByRole('button', { name: 'Delete del-me' });
    const confirm = page.getByRole('dialog', { name: 'Delete Server' });
    const stillThere = async () => (await app.db.select().from(servers).where(eq(servers.id, doomed.id))).length;
    // Cancel, then Escape: nothing is deleted. The dialog has the focus, so Escape reaches it.
    await deleteButton.click();
    await confirm.getByText('Are you sure you want to delete this server?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await deleteButton.click();
    await confirm.waitFor();
    expect(await confirm.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await stillThere()).toBe(1);
    await deleteButton.click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Server deleted successfully.').waitFor();
    await confirm.waitFor({ state: 'detached' });
    expect(await stillThere()).toBe(0);
    expect(nativeDialogs).toEqual([]);
    await page.close();
  });

  it('ships only the page shown, then searches and pages without reloading', async () => {
    await app.db.insert(servers).values(
      Array.from({ length: 60 }, (_, i) => ({
        name: `fleet-${String(i).padStart(2, '0')}`,
        ipAddress: `127.0.2.${i + 1}`,
      })),
    );
    const page = await context.newPage();
    const loads: string[] = [];
    page.on('request', (r) => r.isNavigationRequest() && loads.push(r.url()));
    const response = await page.goto(`${app.url}/infrastructure?q=fleet-`);
    const html = await response!.text();
    expect(html).toContain('fleet-49');
    expect(html).not.toContain('fleet-50'); // the second page is asked for when shown
    await page.locator('.server-table[data-loaded]').waitFor();
    expect(await names(page)).toHaveLength(50);
    await page.getByRole('link', { name: 'Next' }).click();
    // The table re-renders after the click and the typing: wait for it (a loaded machine is slower than a test).
    await expect.poll(() => names(page)).toEqual(Array.from({ length: 10 }, (_, i) => `fleet-${50 + i}`));
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('fleet-57');
    await expect.poll(() => names(page)).toEqual(['fleet-57']);
    expect(loads).toHaveLength(1);
    await page.close();
  });

  it('hydrated every page above without errors or warnings (the last check in its own column, in the saved timezone)', async () => {
    // 14:15 UTC on 20 Nov is 1:15 am on 21 Nov in Sydney (AEDT, UTC+11) and 9:15 am on 20 Nov in New York.
    await addServer({ name: 'zz-checked', uptime: 0, lastHealthCheck: new Date('2026-11-20T14:15:00Z') });
    const page = await openTable('?q=zz-checked');
    expect(await page.locator('td[data-column="lastCheck"]').textContent()).toBe('21 Nov 2026, 1:15 am');
    expect(await page.locator('td[data-column="uptime"]').textContent()).toBe('—');
    await page.close();
    expect(problems).toEqual([]);
  });
});
