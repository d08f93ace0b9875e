import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { serverChecks, servers } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

const DESKTOP: BrowserContextOptions = { viewport: { width: 1366, height: 768 } };
const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

let app: RunningApp;
let browser: Browser;
let editor: TestUser;
/** The monitor port a new server's first (implicit) check connects to: answers and closes. */
let listener: NetServer;
let openPort: number;
const problems: string[] = [];

async function open(path: string, options: BrowserContextOptions): Promise<Page> {
  const context = await signedInContext(browser, app.url, editor.cookie, options);
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    // The refused list is a 400 the test provokes; the browser notes it as a failed resource.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  await page.goto(`${app.url}${path}`);
  return page;
}

async function openTable(options: BrowserContextOptions): Promise<Page> {
  const page = await open('/infrastructure', options);
  await page.locator('app-island[data-name="ServerTable"][data-hydrated] .server-table[data-loaded]').waitFor();
  return page;
}

/** No sideways scrolling: the page is no wider than the viewport. */
async function expectNoOverflow(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

const storedChecks = async (name: string) => {
  const [server] = await app.db.select().from(servers).where(eq(servers.name, name));
  const rows = await app.db
    .select()
    .from(serverChecks)
    .where(eq(serverChecks.serverId, server.id))
    .orderBy(asc(serverChecks.position));
  return { server, rows };
};

describe.skipIf(!hasBrowser)('server checks in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    editor = await createSignedInUser(app.db, { role: 'editor' });
    browser = await sharedBrowser();
    listener = createServer((s) => s.end());
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    openPort = (listener.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => (listener ? listener.close(() => r()) : r()));
    await app?.stop();
  });

  it('adds a server with an http check through the form and shows it on the detail page (1366 px)', async () => {
    const page = await openTable(DESKTOP);
    await page.getByRole('button', { name: 'Add Your First Server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Server' });
    await dialog.getByLabel('Server Name').fill('checks-web-01');
    await dialog.getByLabel('IP Address').fill('127.0.0.1');
    await dialog.getByLabel('Monitor Port').fill(String(openPort));
    await dialog.getByText('No checks of its own: the server is checked by TCP on its monitor port.').waitFor();
    await dialog.getByRole('button', { name: 'Add check' }).click();
    const check = dialog.getByRole('group', { name: 'Check 1' });
    // A new check starts as tcp on the server's address and monitor port.
    expect(await check.getByLabel('Target').inputValue()).toBe('127.0.0.1');
    expect(await check.getByLabel('Port').inputValue()).toBe(String(openPort));
    await check.getByLabel('Kind').selectOption('http');
    expect(await check.getByLabel('Port').inputValue()).toBe('');
    await check.getByLabel('Port').fill('8080');
    await check.getByLabel('Path').fill('/healthz');
    await check.getByLabel('Expected status').fill('204');
    await check.getByLabel('Body contains').fill('ok');
    await dialog.getByRole('button', { name: 'Add Server' }).click();
    await page.getByText('Server added successfully.').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const { server, rows } = await storedChecks('checks-web-01');
    expect(rows.map((r) => [r.kind, r.target, r.port, r.path, r.expectStatus, r.expectText])).toEqual([
      ['http', '127.0.0.1', 8080, '/healthz', 204, 'ok'],
    ]);
    await page.goto(`${app.url}/infrastructure/${server.id}`);
    const card = page.locator('#checks');
    await card.getByText('http 127.0.0.1:8080/healthz').waitFor();
    await card.getByText('Expects status 204, body contains “ok”').waitFor();
    await card.getByText('Not checked yet.').waitFor();
    await expectNoOverflow(page);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('edits the checks at 360 px: the list loads, a refused target says why, a dns check is added', async () => {
    const page = await openTable(PHONE);
    await page.getByRole('button', { name: 'Edit checks-web-01' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Server' });
    const first = dialog.getByRole('group', { name: 'Check 1' });
    expect(await first.getByLabel('Kind').inputValue()).toBe('http');
    expect(await first.getByLabel('Path').inputValue()).toBe('/healthz');

    await dialog.getByRole('button', { name: 'Add check' }).click();
    const second = dialog.getByRole('group', { name: 'Check 2' });
    await second.getByLabel('Kind').selectOption('dns');
    await second.getByLabel('Target').fill('169.254.169.254');
    await dialog.getByRole('button', { name: 'Update Server' }).click();
    await dialog.getByText('Check 2: target must be a host name for a dns check.').waitFor();
    await second.getByLabel('Kind').selectOption('tcp');
    await second.getByLabel('Port').fill('80');
    await dialog.getByRole('button', { name: 'Update Server' }).click();
    await dialog
      .getByText('Check 2: target 169.254.169.254 is refused: 169.254.169.254 is in a denied network', { exact: false })
      .waitFor();
    expect((await storedChecks('checks-web-01')).rows).toHaveLength(1);

    await second.getByLabel('Kind').selectOption('dns');
    await second.getByLabel('Target').fill('localhost');
    await second.getByLabel('Expected address').fill('127.0.0.1');
    await dialog.getByRole('button', { name: 'Update Server' }).click();
    await page.getByText('Server updated successfully.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const { server, rows } = await storedChecks('checks-web-01');
    expect(rows.map((r) => [r.kind, r.target, r.port, r.expectAddress])).toEqual([
      ['http', '127.0.0.1', 8080, null],
      ['dns', 'localhost', null, '127.0.0.1'],
    ]);

    await page.goto(`${app.url}/infrastructure/${server.id}`);
    const card = page.locator('#checks');
    await card.getByText('http 127.0.0.1:8080/healthz').waitFor();
    await card.getByText('dns localhost → 127.0.0.1').waitFor();
    await expectNoOverflow(page);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
