import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTwoFactorSetup } from '../../src/auth/two-factor';
import { servers } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let admin: TestUser;

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 360, height: 740 };
type Viewport = typeof DESKTOP;

async function open(path: string, viewport: Viewport, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await signedInContext(browser, app.url, admin.cookie, { viewport, colorScheme });
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  await page.goto(app.url + path);
  return page;
}

/** The colour a CSS expression computes to on this page (e.g. var(--red-fg)). */
const computed = (page: Page, colour: string) =>
  page.evaluate((c) => {
    const probe = document.createElement('span');
    probe.style.color = c;
    document.body.append(probe);
    const value = getComputedStyle(probe).color;
    probe.remove();
    return value;
  }, colour);

/** The centre of the floating assistant button and what is hit there. */
const hitAtAssistantButton = (page: Page) =>
  page.evaluate(() => {
    const r = document.querySelector('.fab')!.getBoundingClientRect();
    const el = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return { tag: el?.tagName ?? '', className: el?.className ?? '', inFab: !!el?.closest('.fab') };
  });

describe.skipIf(!hasBrowser)('phones and desktops in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    admin = await createSignedInUser(app.db, { role: 'admin', firstName: 'Ada', lastName: 'Admin' });
    await app.db.insert(servers).values([
      {
        name: 'web-prod-01',
        ipAddress: '127.0.0.51',
        hostname: 'web-prod-01.corp.example.com',
        environment: 'production',
      },
      {
        name: 'app-stage-01',
        ipAddress: '127.0.0.52',
        hostname: 'app-stage-01.corp.example.com',
        environment: 'staging',
      },
      {
        name: 'dev-box-01',
        ipAddress: '127.0.0.53',
        hostname: 'dev-box-01.corp.example.com',
        environment: 'development',
      },
    ]);
    for (const [title, category] of [
      ['Monthly patching of the Windows fleet', 'Patching'],
      ['VPN troubleshooting for remote offices', 'Networking'],
    ]) {
      await createItem(app.db, 'knowledge', { title, content: `# ${title}\n\nSteps.`, category }, admin.id);
    }
  });
  afterAll(async () => {
    await app?.stop();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`dashboard at ${viewport.width}px (${scheme}): production red, staging yellow, development green`, async () => {
        const page = await open('/', viewport, scheme);
        const muted = await computed(page, 'var(--muted)');
        for (const [environment, colour] of [
          ['Production', 'red'],
          ['Staging', 'yellow'],
          ['Development', 'green'],
        ]) {
          const badge = page.locator('#infra-overview td .badge', { hasText: environment });
          const style = await badge.evaluate((el) => ({
            color: getComputedStyle(el).color,
            border: getComputedStyle(el).borderTopColor,
          }));
          const expected = await computed(page, `var(--${colour}-fg)`);
          expect(style.color, environment).toBe(expected);
          expect(style.border, environment).toBe(expected);
          expect(style.color, environment).not.toBe(muted);
        }
        await page.context().close();
      });
    }
  }

  it('dashboard stat cards: 2 × 2 on a phone, one row of four on a desktop', async () => {
    const grid = async (viewport: Viewport) => {
      const page = await open('/', viewport);
      const boxes = await page.locator('#dash-stats .stat-card').evaluateAll((cards) =>
        cards.map((c) => {
          const r = c.getBoundingClientRect();
          return { x: Math.round(r.x), y: Math.round(r.y) };
        }),
      );
      await page.context().close();
      return { columns: new Set(boxes.map((b) => b.x)).size, rows: new Set(boxes.map((b) => b.y)).size };
    };
    expect(await grid(PHONE)).toEqual({ columns: 2, rows: 2 });
    expect(await grid(DESKTOP)).toEqual({ columns: 4, rows: 1 });
  });

  it('the last button of a page scrolls clear of the assistant button (two-factor set-up on a phone)', async () => {
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    await startTwoFactorSetup(app.db, user.id); // the set-up step: QR code, key, code field, then "Turn on"
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await (await signedInContext(browser, app.url, user.cookie, { viewport })).newPage();
      await page.goto(`${app.url}/settings/two-factor`);
      const last = page.locator('main button[type=submit]').last();
      await last.waitFor();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const [button, fab] = await Promise.all([last.boundingBox(), page.locator('.fab').boundingBox()]);
      const overlaps =
        button!.x < fab!.x + fab!.width &&
        fab!.x < button!.x + button!.width &&
        button!.y < fab!.y + fab!.height &&
        fab!.y < button!.y + button!.height;
      expect(overlaps, `at ${viewport.width}px`).toBe(false);
      await page.context().close();
    }
  });

  it('the assistant button is under the open mobile menu and under a modal dialog (phone and desktop)', async () => {
    const phone = await open('/', PHONE);
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await phone.locator('.sidebar-overlay').waitFor();
    const overMenu = await hitAtAssistantButton(phone);
    expect(overMenu.inFab).toBe(false);
    expect(overMenu.className).toContain('sidebar-overlay');
    await phone.context().close();
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await open('/knowledge-base?view=list', viewport);
      await page
        .getByRole('link', { name: /^Delete / })
        .first()
        .click();
      await page.locator('dialog#confirm-delete[open]').waitFor();
      const overDialog = await hitAtAssistantButton(page);
      expect(overDialog.inFab).toBe(false);
      expect(overDialog.tag).toBe('DIALOG');
      await page.context().close();
    }
  });

  it('category view: on a phone the tree (collapsible) above the preview, both full width; side by side on a desktop', async () => {
    const page = await open('/knowledge-base?view=category', PHONE);
    await page.locator('app-island[data-name="CategoryView"][data-hydrated]').waitFor();
    const tree = page.locator('.kb-stack__tree');
    await page.locator('.tree__group > summary', { hasText: 'Patching' }).click();
    const title = 'Monthly patching of the Windows fleet';
    const link = page.getByRole('link', { name: title, exact: true });
    // The title is not cut: its link is as wide as its text.
    await expect(link.evaluate((a) => a.scrollWidth <= a.clientWidth)).resolves.toBe(true);
    await link.click();
    const preview = page.locator('.kb-preview');
    await preview.getByRole('heading', { name: title, level: 2 }).waitFor();
    const [treeBox, previewBox] = [(await tree.boundingBox())!, (await preview.boundingBox())!];
    expect(treeBox.width).toBeGreaterThan(300);
    expect(previewBox.width).toBeGreaterThan(300);
    expect(previewBox.y).toBeGreaterThanOrEqual(treeBox.y + treeBox.height - 1);
    // Collapsing the tree leaves its summary.
    await tree.locator(':scope > summary').click();
    await expect(tree.locator('.tree').isVisible()).resolves.toBe(false);
    // An admin is told the truth about deleting: it can be restored.
    await preview.getByRole('button', { name: 'Delete' }).click();
    await expect(
      page
        .locator('dialog#kb-preview-delete')
        .getByText(`Are you sure you want to delete "${title}"? Admins can restore it from Deleted items.`)
        .isVisible(),
    ).resolves.toBe(true);
    await page.context().close();

    // A desktop keeps the side-by-side split with its handle.
    const desktop = await open('/knowledge-base?view=category', DESKTOP);
    await desktop.locator('app-island[data-name="CategoryView"][data-hydrated]').waitFor();
    await expect(desktop.locator('.kb-stack').count()).resolves.toBe(0);
    const treePanel = (await desktop.locator('#kb-categories').boundingBox())!;
    const previewPanel = (await desktop.locator('#kb-preview').boundingBox())!;
    expect(Math.abs(treePanel.y - previewPanel.y)).toBeLessThan(2);
    expect(previewPanel.x).toBeGreaterThan(treePanel.x + treePanel.width - 1);
    await expect(desktop.locator('.kb-split__handle').isVisible()).resolves.toBe(true);
    await desktop.context().close();
  });

  it('Ops AI panel on a phone: the placeholder fits, and a table in an answer scrolls inside itself', async () => {
    const page = await open('/team', PHONE);
    await page.getByRole('link', { name: 'Open AI Assistant' }).click();
    const panel = page.getByRole('dialog', { name: 'AI Assistant' });
    const input = panel.getByRole('textbox', { name: 'Message' });
    await input.waitFor();
    // Lay the placeholder out in a box of the field's width and font: it must not be taller than the field.
    const fits = await input.evaluate((field: HTMLTextAreaElement) => {
      const style = getComputedStyle(field);
      const copy = document.createElement('div');
      copy.textContent = field.placeholder;
      for (const p of ['font', 'lineHeight', 'padding', 'border', 'boxSizing', 'letterSpacing', 'wordSpacing'] as const)
        copy.style[p] = style[p];
      copy.style.width = `${field.offsetWidth}px`;
      copy.style.overflowWrap = 'break-word';
      document.body.append(copy);
      const needed = copy.offsetHeight;
      copy.remove();
      return { needed, height: field.offsetHeight };
    });
    expect(fits.needed).toBeLessThanOrEqual(fits.height);
    await input.fill('What are the IP addresses of the servers?');
    await input.press('Enter');
    const table = panel.locator('.bubble--assistant table');
    await table.waitFor();
    await panel.getByText('Streaming response in real-time...').waitFor({ state: 'detached' });
    const layout = await table.evaluate((t) => {
      const bubble = t.closest('.bubble')!.getBoundingClientRect();
      const box = t.getBoundingClientRect();
      const header = [...t.querySelectorAll('th')].find((th) => th.textContent === 'IP Address')!;
      const text = document.createRange();
      text.selectNodeContents(header);
      return {
        scrolls: t.scrollWidth > t.clientWidth,
        inside: box.right <= bubble.right + 1 && box.left >= bubble.left - 1,
        panelFits: document.documentElement.scrollWidth <= window.innerWidth,
        // "IP Address" on one or two lines (words whole), never a few letters a line.
        headerLines: new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size,
      };
    });
    expect(layout.scrolls).toBe(true);
    expect(layout.inside).toBe(true);
    expect(layout.panelFits).toBe(true);
    expect(layout.headerLines).toBeLessThanOrEqual(2);
    await page.context().close();
  });
});
