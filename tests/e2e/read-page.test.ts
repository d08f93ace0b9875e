import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { createItem, getItem, updateItem } from '../../src/knowledge/service';
import { itemSlug } from '../../src/knowledge/shared/slug';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

const WIDE = { width: 1366, height: 768 };
const PHONE = { width: 360, height: 740 };

const INTRO = 'Use this runbook for the monthly patch window of the Windows file servers. It takes about two hours.';
const CODE =
  'Get-Service -ComputerName FS01,FS02,FS03 -Name LanmanServer,DFSR,W32Time | Where-Object { $_.Status -ne "Running" } | Format-Table -AutoSize MachineName,Name,Status';
const STEPS = [
  'Announce the window',
  'Take a snapshot',
  'Check the services',
  'Review the server list',
  'Install the updates',
  'Reboot and verify services',
  'Check the shares',
  'Close the change',
];
const STEP6 = 'step-6-reboot-and-verify-services';
const WIDE_TABLE = [
  '| Server | Role | Site | Owner | Patch group | Maintenance window | Snapshot policy | Backup job | Notes |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  '| FS01 | File server | Amsterdam | Infrastructure team | Group A (first Tuesday) | Saturday 02:00-04:00 | Daily, kept 14 days | nightly-fs01-full | Primary DFS namespace server |',
  '| FS02 | File server | Rotterdam | Infrastructure team | Group B (second Tuesday) | Sunday 02:00-04:00 | Daily, kept 14 days | nightly-fs02-full | Replica of FS01 |',
].join('\n');

/** Text long enough that the sections run well past one screen. */
const filler = (step: number) =>
  `Step ${step} text. Work through this step with the change ticket open and note the time you finish it. ` +
  'If anything looks different from what is described here, stop and call the on-call engineer before going on. ' +
  'Write down what you saw, including the server name and the exact error message, in the ticket.';

function section(title: string, index: number): string {
  const n = index + 1;
  const extra = n === 3 ? `\n\n\`\`\`powershell\n${CODE}\n\`\`\`` : n === 4 ? `\n\n${WIDE_TABLE}` : '';
  return `## Step ${n}: ${title}\n\n${filler(n)}\n\n${filler(n)}${extra}`;
}

const LONG_CONTENT = [INTRO, ...STEPS.map(section)].join('\n\n');

let app: RunningApp;
let browser: Browser;
let user: TestUser;

interface OpenedPage {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/** A page of a new signed-in context (1366×768 unless told), collecting page and console errors. */
async function openPage(options: BrowserContextOptions = {}, who: TestUser = user): Promise<OpenedPage> {
  const context = await signedInContext(browser, app.url, who.cookie, { viewport: WIDE, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  return { context, page, problems };
}

const kbPage = (item: { id: string; title: string }) => `/knowledge-base/${item.id}/${itemSlug(item.title)}`;

/** A heading's top relative to the sticky page header's bottom and to the viewport's height. */
function headingPlace(page: Page, id: string) {
  return page.evaluate((headingId) => {
    const heading = document.getElementById(headingId)!.getBoundingClientRect();
    const header = document.querySelector('.page-header')!.getBoundingClientRect();
    return { top: heading.top, headerBottom: header.bottom, viewport: window.innerHeight };
  }, id);
}

/** The heading's top is below the sticky header and inside the viewport (the failure shows where it was). */
async function expectInView(page: Page, id: string): Promise<void> {
  await expect
    .poll(() => headingPlace(page, id))
    .toSatisfy((at) => at.top >= at.headerBottom && at.top < at.viewport - 40);
}

describe.skipIf(!hasBrowser)('an item read page in Chromium', () => {
  let long: { id: string; title: string };
  let short: { id: string; title: string };

  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Grace', lastName: 'Hopper' });
    long = await createItem(
      app.db,
      'knowledge',
      {
        title: 'Monthly patching of the file servers',
        content: LONG_CONTENT,
        category: 'Patching',
        templateType: 'work_instruction',
        tags: ['windows', 'patching', 'file-servers'],
      },
      user.id,
    );
    short = await createItem(
      app.db,
      'knowledge',
      { title: 'Printer notes', content: '## Toner\n\nSecond shelf.\n\n## Paper\n\nA4 only.', category: 'Office' },
      user.id,
    );
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('reload and back/forward keep the item', async () => {
    const { context, page, problems } = await openPage();
    const title = page.locator('h1.doc__title', { hasText: long.title });
    await page.goto(`${app.url}/knowledge-base?doc=${long.id}`);
    expect(page.url()).toBe(`${app.url}${kbPage(long)}`);
    await title.waitFor();
    await page.reload();
    expect(page.url()).toBe(`${app.url}${kbPage(long)}`);
    await title.waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Knowledge Base' }).click();
    await page.waitForURL(`${app.url}/knowledge-base`);
    await page.goBack();
    expect(page.url()).toBe(`${app.url}${kbPage(long)}`);
    await title.waitFor();
    await page.goForward();
    expect(page.url()).toBe(`${app.url}/knowledge-base`);
    await page.getByRole('searchbox', { name: 'Search knowledge base' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a heading link scrolls to its section, and its # copies the section link', async () => {
    const { context, page, problems } = await openPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await page.goto(`${app.url}${kbPage(long)}`);
    const heading = page.locator(`#${STEP6}`);
    const before = await headingPlace(page, STEP6);
    expect(before.top).toBeGreaterThan(before.viewport);
    await page.locator('nav.toc--side').getByRole('link', { name: 'Step 6: Reboot and verify services' }).click();
    await expectInView(page, STEP6);
    expect(new URL(page.url()).hash).toBe(`#${STEP6}`);
    await page.goto(`${app.url}${kbPage(long)}#${STEP6}`);
    await expectInView(page, STEP6);
    await heading.hover();
    await heading.locator('.heading-anchor').click();
    await page.getByText('Link copied').waitFor();
    const link = `${app.url}${kbPage(long)}#${STEP6}`;
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(page.url()).toBe(link);
    await expectInView(page, STEP6);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a code block's Copy button copies exactly its code", async () => {
    const { context, page, problems } = await openPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await page.goto(`${app.url}${kbPage(long)}`);
    const copy = page.locator('.code-block').getByRole('button', { name: 'Copy' });
    await copy.scrollIntoViewIfNeeded();
    await expect(copy.isVisible()).resolves.toBe(true);
    await copy.click();
    await page.locator('.code-block').getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
    await page.locator('.code-block').getByRole('button', { name: 'Copy', exact: true }).waitFor({ timeout: 4000 });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a long item has a sticky side contents list on wide screens and a collapsed one on phones', async () => {
    const { context, page, problems } = await openPage({ colorScheme: 'light' });
    await page.goto(`${app.url}${kbPage(long)}`);
    const side = page.locator('nav.toc--side');
    const inline = page.locator('details.toc--inline');
    await expect(side.isVisible()).resolves.toBe(true);
    await expect(inline.isVisible()).resolves.toBe(false);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    const box = (await side.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(WIDE.height);

    await page.setViewportSize(PHONE);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(side.isVisible()).resolves.toBe(false);
    await expect(inline.isVisible()).resolves.toBe(true);
    const firstEntry = inline.getByRole('link', { name: 'Step 1: Announce the window' });
    await expect(firstEntry.isVisible()).resolves.toBe(false);
    await inline.locator('summary', { hasText: 'Contents' }).click();
    await firstEntry.waitFor();
    // The phone's sticky header is taller (it holds the search box): a section still lands below it.
    await inline.getByRole('link', { name: 'Step 6: Reboot and verify services' }).click();
    await expectInView(page, STEP6);

    await page.goto(`${app.url}${kbPage(short)}`);
    await page.locator('h1.doc__title', { hasText: 'Printer notes' }).waitFor();
    await expect(page.locator('.toc').count()).resolves.toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on a phone the title and first paragraph are in the first screen, with no sideways scroll', async () => {
    const { context, page, problems } = await openPage({ viewport: PHONE, colorScheme: 'light' });
    await page.goto(`${app.url}${kbPage(long)}`);
    const title = (await page.locator('h1.doc__title').boundingBox())!;
    const intro = page.locator('.doc__body p').first();
    await expect(intro.innerText()).resolves.toBe(INTRO);
    const paragraph = (await intro.boundingBox())!;
    expect(title.y).toBeGreaterThanOrEqual(0);
    expect(paragraph.y + paragraph.height).toBeLessThanOrEqual(PHONE.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // The wide table and the long code line scroll inside themselves.
    const overflows = (selector: string) =>
      page.locator(selector).evaluate((el) => el.scrollWidth > el.clientWidth && el.clientWidth > 0);
    await expect(overflows('.table-scroll')).resolves.toBe(true);
    await expect(overflows('.code-block pre')).resolves.toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('details.toc--inline > summary').click();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reads completely without JavaScript; Edit and Delete are working links', async () => {
    const doomed = await createItem(
      app.db,
      'knowledge',
      { title: 'Old backup rotation', content: LONG_CONTENT, category: 'Backups' },
      user.id,
    );
    const { context, page, problems } = await openPage({ javaScriptEnabled: false });
    await page.goto(`${app.url}/knowledge-base?doc=${doomed.id}`);
    expect(page.url()).toBe(`${app.url}${kbPage(doomed)}`);
    await expect(page.locator('h1.doc__title').innerText()).resolves.toBe('Old backup rotation');
    const body = await page.locator('.doc__body').innerText();
    expect(body).toContain(INTRO);
    for (const [i, step] of STEPS.entries()) {
      expect(body).toContain(`Step ${i + 1}: ${step}`);
      expect(body).toContain(`Step ${i + 1} text.`);
    }
    await expect(page.getByRole('cell', { name: 'Primary DFS namespace server' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('.code-block pre').innerText()).resolves.toContain('Format-Table');
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(false);
    await expect(page.getByRole('button', { name: 'Version History' }).isVisible()).resolves.toBe(false);
    await expect(page.getByRole('link', { name: 'Edit' }).getAttribute('href')).resolves.toBe(
      `/knowledge-base/${doomed.id}/edit`,
    );
    const edit = await page.request.get(`${app.url}/knowledge-base/${doomed.id}/edit`);
    expect(edit.status()).toBe(200);
    await page.getByRole('link', { name: 'Delete' }).click();
    await page.waitForURL((u) => u.pathname === `/knowledge-base/${doomed.id}/delete`);
    await page.getByText('Are you sure you want to delete "Old backup rotation"?').waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((u) => u.pathname === '/knowledge-base');
    await page.getByText('Knowledge base item deleted successfully.').waitFor();
    expect(await getItem(app.db, 'knowledge', doomed.id)).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Version History loads on its first click and a restore reloads the page', async () => {
    const item = await createItem(
      app.db,
      'knowledge',
      { title: 'DNS failover', content: '## Check\n\nPing the **primary** resolver.', category: 'Networking' },
      user.id,
    );
    await updateItem(
      app.db,
      'knowledge',
      item.id,
      { title: 'DNS failover', content: '## Check\n\nPing the secondary resolver.', category: 'Networking' },
      user.id,
    );
    const { context, page, problems } = await openPage();
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (/\/static\/build\/(chunks\/|ItemHistory)/.test(r.url())) chunks.push(r.url());
    });
    await page.goto(`${app.url}${kbPage(item)}`);
    await page.locator('.doc__facts', { hasText: /\bv2\b/ }).waitFor();
    const button = page.getByRole('button', { name: 'Version History' });
    await button.waitFor();
    // Nothing else on the page (an idle island) may fetch React either.
    await page.waitForLoadState('networkidle');
    expect(chunks).toEqual([]);
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Version History' });
    await dialog.getByRole('button', { name: /Version 1/ }).click();
    expect(chunks.some((url) => url.includes('ItemHistory'))).toBe(true);
    await dialog.getByRole('button', { name: 'Restore Version' }).click();
    await page.locator('.doc__facts', { hasText: /\bv3\b/ }).waitFor();
    await expect(page.locator('.doc__body').innerText()).resolves.toContain('Ping the primary resolver.');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Delete asks in a dialog (Escape keeps the item) and lands on the list', async () => {
    const doomed = await createItem(app.db, 'knowledge', { title: 'Retired VLAN notes', content: 'x' }, user.id);
    const { context, page, problems } = await openPage();
    await page.goto(`${app.url}${kbPage(doomed)}`);
    const dialog = page.getByRole('dialog', { name: 'Delete item' });
    const question = 'Are you sure you want to delete "Retired VLAN notes"? This action cannot be undone.';
    await page.getByRole('link', { name: 'Delete', exact: true }).click();
    await dialog.getByText(question).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await getItem(app.db, 'knowledge', doomed.id))?.title).toBe('Retired VLAN notes');
    expect(page.url()).toBe(`${app.url}${kbPage(doomed)}`);
    await page.getByRole('link', { name: 'Delete', exact: true }).click();
    await dialog.getByText(question).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((u) => u.pathname === '/knowledge-base');
    await page.getByText('Knowledge base item deleted successfully.').waitFor();
    expect(await getItem(app.db, 'knowledge', doomed.id)).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a document gets the same page, its Edit leading to the document editor', async () => {
    const doc = await createItem(
      app.db,
      'documents',
      { title: 'Network diagram notes', content: '## Core\n\nTwo core switches.' },
      user.id,
    );
    const { context, page, problems } = await openPage();
    await page.goto(`${app.url}/documents?doc=${doc.id}`);
    expect(page.url()).toBe(`${app.url}/documents/${doc.id}/network-diagram-notes`);
    await page.locator('h1.doc__title', { hasText: 'Network diagram notes' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Core' }).isVisible()).resolves.toBe(true);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL(`${app.url}/documents/${doc.id}/edit`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
