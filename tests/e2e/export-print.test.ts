import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objects } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import type { Item } from '../../src/knowledge/schemas';
import { itemSlug } from '../../src/knowledge/shared/slug';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Issue 25 in Chromium: print an item to PDF from its print view, download it as markdown, export a space. */

let app: RunningApp;
let browser: Browser;
let editor: TestUser;
let admin: TestUser;
let runbook: Item;
let imageId: string;

/** A 40×20 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAUCAIAAABwJOjsAAAAJElEQVR4nGM4ISc3IIhh1OJRi0ctHrV41OJRi0ctHrV45FgMAFLhLK5mrmiuAAAAAElFTkSuQmCC',
  'base64',
);
const TITLE = 'Failover of the core switches';
const SECTIONS = ['Before you start', 'Fail over', 'Check the uplinks'];
const filler = 'Work through this with the change ticket open and note the time you finish each step. '.repeat(3);

describe.skipIf(!hasBrowser)('export and print in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    editor = await createSignedInUser(app.db, { firstName: 'Edda', lastName: 'Editor' });
    admin = await createSignedInUser(app.db, { role: 'admin' });
    const [row] = await app.db
      .insert(objects)
      .values({ ownerId: editor.id, contentType: 'image/png', size: PNG.length, data: PNG, visibility: 'public' })
      .returning({ id: objects.id });
    imageId = row.id;
    const content = [
      'Both core switches are in rack B4.',
      `![rack B4](/objects/${imageId})`,
      ...SECTIONS.map((s, i) => `## ${s}\n\n${filler}\n\nStep ${i + 1}.`),
    ].join('\n\n');
    runbook = await createItem(
      app.db,
      'knowledge',
      { title: TITLE, content, category: 'Network', templateType: 'work_instruction', reviewIntervalDays: 30 },
      editor.id,
    );
    await createItem(app.db, 'knowledge', { title: 'Office printer', content: 'Toner.', category: 'Office' }, null);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('opens the print view from the read page: no sidebar or header, no script, and it prints to a PDF', async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, editor.cookie);
    await page.goto(`${app.url}/knowledge-base/${runbook.id}/${itemSlug(TITLE)}`);
    await page.getByRole('link', { name: 'Print' }).click();
    await page.waitForURL(`${app.url}/knowledge-base/${runbook.id}/print`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(TITLE);
    expect(await page.title()).toBe(`${TITLE} · Ops Hub`);
    // No app chrome, and no JavaScript at all.
    expect(await page.locator('.sidebar, .page-header, nav[aria-label="Main navigation"], .fab').count()).toBe(0);
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    expect(await page.locator('.print__facts').textContent()).toContain('Edda Editor');
    // The image loaded, no wider than the page.
    const img = page.locator('.print__body img');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(40);

    // For paper: a page break before each level-2 heading but the first; the on-screen hint is hidden.
    await page.emulateMedia({ media: 'print' });
    const breaks = await page
      .locator('.print__body h2')
      .evaluateAll((hs) => hs.map((h) => getComputedStyle(h).breakBefore));
    expect(breaks).toEqual(['auto', 'page', 'page']);
    expect(await page.locator('.print__bar').isVisible()).toBe(false);

    // outline: the headings become the PDF's bookmarks, whose titles are plain strings in the file.
    const pdf = await page.pdf({ format: 'A4', printBackground: true, outline: true, tagged: true });
    expect(pdf.byteLength).toBeGreaterThan(5_000);
    const raw = pdf.toString('latin1');
    expect(raw.startsWith('%PDF-')).toBe(true);
    // One page per section (breaks before the 2nd and 3rd heading).
    expect(raw.match(/\/Type\s*\/Page\b/g)?.length).toBe(SECTIONS.length);
    // The page text sits in compressed, glyph-coded streams; the info's title and the bookmarks are strings: the
    // document's title, then its headings (the item's title and its sections), and nothing of the app's frame.
    const titles = pdfTitles(raw);
    expect(titles.sort()).toEqual([`${TITLE} · Ops Hub`, TITLE, ...SECTIONS].sort());
    expect(problems).toEqual([]);
    await context.close();
  });

  it('downloads the item as a zip of markdown and its image from Download markdown', async () => {
    const { context, page } = await signedInPage(browser, app.url, editor.cookie);
    await page.goto(`${app.url}/knowledge-base/${runbook.id}/${itemSlug(TITLE)}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download markdown' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('failover-of-the-core-switches.zip');
    const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    expect(Object.keys(files).sort()).toEqual([`failover-of-the-core-switches.md`, `images/${imageId}.png`].sort());
    const md = new TextDecoder().decode(files['failover-of-the-core-switches.md']);
    expect(md).toMatch(new RegExp(`^---\\ntitle: ${TITLE}\\n|\\ntitle: ${TITLE}\\n`));
    expect(md).toContain(`![rack B4](images/${imageId}.png)`);
    await context.close();
  });

  it("an admin's Export follows the list's filters (changed in place by htmx) and downloads their items", async () => {
    const { context, page, problems } = await signedInPage(browser, app.url, admin.cookie);
    await page.goto(`${app.url}/knowledge-base`);
    const exportLink = page.getByRole('link', { name: 'Export', exact: true });
    expect(await exportLink.getAttribute('href')).toBe('/api/export?space=knowledge');
    await page.getByLabel('Category', { exact: true }).selectOption('Network');
    await page.waitForURL(/category=Network/);
    await expect.poll(() => exportLink.getAttribute('href')).toBe('/api/export?space=knowledge&category=Network');
    const [download] = await Promise.all([page.waitForEvent('download'), exportLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^knowledge-base-\d{4}-\d\d-\d\d\.zip$/);
    const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    expect(Object.keys(files).sort()).toEqual(
      ['Network/failover-of-the-core-switches.md', `images/${imageId}.png`].sort(),
    );
    expect(Buffer.from(files[`images/${imageId}.png`]).equals(PNG)).toBe(true);
    expect(new TextDecoder().decode(files['Network/failover-of-the-core-switches.md'])).toContain(
      `](../images/${imageId}.png)`,
    );
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** Every /Title string of a PDF (info dictionary, bookmarks): literal, or UTF-16BE hex as Chromium writes them. */
function pdfTitles(raw: string): string[] {
  return [...raw.matchAll(/\/Title\s*(?:<FEFF([0-9A-F]*)>|\(((?:\\.|[^\\)])*)\))/gi)].map(([, hex, literal]) =>
    hex !== undefined ? Buffer.from(hex, 'hex').swap16().toString('utf16le') : literal,
  );
}
