import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createItem, getItem, updateItem } from '../../src/knowledge/service';
import { hasBrowser, sharedBrowser, signedInContext, toastDuring } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let user: TestUser;

async function signedInPage(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await signedInContext(browser, app.url, user.cookie, { viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // A search replaced by a newer one (hx-sync "replace") is aborted by design; htmx logs the abort and the
    // afterRequest just before it as errors (as tests/helpers/browser.ts signedInPage filters them).
    if (m.text().startsWith('htmx:sendAbort')) {
      if (problems.at(-1)?.startsWith('htmx:afterRequest')) problems.pop();
      return;
    }
    problems.push(m.text());
  });
  return { context, page, problems };
}

/** In the hydrated category view: opens the item's category group (if closed) and clicks the item to preview it. */
async function pickInTree(page: Page, group: string, title: string): Promise<void> {
  await page.locator('app-island[data-name="CategoryView"][data-hydrated]').waitFor();
  const details = page.locator('details.tree__group', { has: page.locator('summary', { hasText: group }) });
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  await details.getByRole('link', { name: title, exact: true }).click();
}

describe.skipIf(!hasBrowser)('knowledge base in Chromium', () => {
  let patch: { id: string };
  let vpn: { id: string };
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Grace', lastName: 'Hopper' });
    patch = await createItem(
      app.db,
      'knowledge',
      {
        title: 'Monthly patching',
        content: '# Patch steps\n\nDrain the node first.',
        category: 'Patching',
        templateType: 'work_instruction',
        tags: ['windows'],
      },
      user.id,
    );
    vpn = await createItem(
      app.db,
      'knowledge',
      { title: 'VPN troubleshooting', content: 'Check the **tunnel**.\n\nSecond line.', category: 'Networking' },
      user.id,
    );
    await updateItem(
      app.db,
      'knowledge',
      vpn.id,
      {
        title: 'VPN troubleshooting guide',
        content: 'Check the **tunnel** and the certificate.\n\nSecond line.',
        category: 'Networking',
      },
      user.id,
    );
    await createItem(app.db, 'knowledge', { title: 'Printer notes', content: 'Uncategorised note' }, user.id);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('search, type filter and view change the URL and the results', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base`);
    await expect(page.getByRole('link', { name: 'Printer notes', exact: true }).isVisible()).resolves.toBe(true);
    await page.getByRole('searchbox', { name: 'Search knowledge base' }).fill('patch');
    await page.waitForURL(/\/knowledge-base\?q=patch/);
    await page.getByRole('link', { name: 'Printer notes', exact: true }).waitFor({ state: 'detached' });
    await expect(page.getByRole('link', { name: 'Monthly patching', exact: true }).isVisible()).resolves.toBe(true);
    await page.getByRole('searchbox', { name: 'Search knowledge base' }).fill('');
    await page.waitForURL((u) => !u.search.includes('q=patch'));
    await page.getByLabel('Type').selectOption({ label: 'Work Instructions' });
    await page.waitForURL(/type=work-instruction/);
    await page.getByRole('link', { name: 'VPN troubleshooting guide', exact: true }).waitFor({ state: 'detached' });
    await page.getByTitle('List view').click();
    await page.waitForURL(/view=list/);
    await page.getByRole('columnheader', { name: 'Version' }).waitFor();
    await expect(page.getByRole('row').count()).resolves.toBe(2);
    await page.getByLabel('Search knowledge base').fill('nothing-matches-this');
    await page.getByText('No items found').waitFor();
    // The URL is the state: a reload shows the same results.
    await page.reload();
    await page.getByText('No items found').waitFor();
    await expect(page.getByLabel('Search knowledge base').inputValue()).resolves.toBe('nothing-matches-this');
    // Switching to the category view through htmx mounts its island.
    await page.getByLabel('Search knowledge base').fill('');
    await page.getByLabel('Type').selectOption({ label: 'All Types' });
    await page.getByTitle('Category view').click();
    await page.waitForURL(/view=category/);
    await page.locator('app-island[data-name="CategoryView"][data-hydrated]').waitFor();
    await expect(page.locator('.tree__group > summary').count()).resolves.toBe(3);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the category view resizes and remembers the split after a reload', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base?view=category`);
    await page.locator('app-island[data-name="CategoryView"][data-hydrated]').waitFor();
    const tree = page.locator('#kb-categories');
    const before = (await tree.boundingBox())!.width;
    const total = (await page.locator('.kb-split').boundingBox())!.width;
    expect(before / total).toBeGreaterThan(0.27);
    expect(before / total).toBeLessThan(0.33);
    // Uncategorized sorts last, groups carry counts.
    const groups = await page.locator('.tree__group > summary').allInnerTexts();
    expect(groups.map((g) => g.replace(/\s+/g, ' ').trim())).toEqual(['Networking 1', 'Patching 1', 'Uncategorized 1']);
    const handle = (await page.locator('.kb-split__handle').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + 100);
    await page.mouse.down();
    await page.mouse.move(handle.x + 150, handle.y + 100, { steps: 10 });
    await page.mouse.up();
    const after = (await tree.boundingBox())!.width;
    expect(after).toBeGreaterThan(before + 100);
    // Never past the 50% maximum.
    await page.mouse.move(handle.x + 150, handle.y + 100);
    await page.mouse.down();
    await page.mouse.move(handle.x + 900, handle.y + 100, { steps: 10 });
    await page.mouse.up();
    const capped = (await tree.boundingBox())!.width;
    expect(capped / total).toBeLessThanOrEqual(0.505);
    await page.reload();
    await page.locator('app-island[data-name="CategoryView"][data-hydrated]').waitFor();
    await expect.poll(async () => Math.abs((await tree.boundingBox())!.width - capped)).toBeLessThan(4);
    // Choosing an item shows its preview.
    await page.locator('.tree__group > summary', { hasText: 'Patching' }).click();
    await page.getByRole('link', { name: 'Monthly patching', exact: true }).click();
    await page.getByRole('heading', { name: 'Patch steps' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the category view previews a tree item; its title and Open page lead to the item page', async () => {
    const { context, page, problems } = await signedInPage();
    const itemPage = `/knowledge-base/${patch.id}/monthly-patching`;
    await page.goto(`${app.url}/knowledge-base?view=category`);
    await pickInTree(page, 'Patching', 'Monthly patching');
    const preview = page.getByRole('article', { name: 'Preview' });
    await preview.getByRole('heading', { name: 'Patch steps' }).waitFor();
    // A plain click previews in place; the tree's link itself is the item's page (for a new tab or no JS).
    expect(new URL(page.url()).search).toBe('?view=category');
    const treeLink = page.locator('.tree').getByRole('link', { name: 'Monthly patching', exact: true });
    await expect(treeLink.getAttribute('href')).resolves.toBe(itemPage);
    await expect(treeLink.getAttribute('aria-current')).resolves.toBe('true');
    await expect(
      preview.getByRole('heading', { name: 'Monthly patching' }).getByRole('link').getAttribute('href'),
    ).resolves.toBe(itemPage);
    await expect(preview.getByRole('link', { name: 'Edit' }).getAttribute('href')).resolves.toBe(
      `/knowledge-base/${patch.id}/edit`,
    );
    await preview.getByRole('link', { name: 'Open page' }).click();
    await page.waitForURL(`${app.url}${itemPage}`);
    await page.locator('h1.doc__title', { hasText: 'Monthly patching' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Patch steps' }).isVisible()).resolves.toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('restores an earlier version from the Version History dialog', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base?view=category`);
    await pickInTree(page, 'Networking', 'VPN troubleshooting guide');
    await page.getByRole('heading', { name: 'VPN troubleshooting guide', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Version History' }).click();
    const dialog = page.getByRole('dialog', { name: 'Version History' });
    await dialog.getByText('Select a version to preview its content').waitFor();
    await dialog.getByRole('button', { name: /Version 2/ }).waitFor();
    await expect(dialog.getByText('Current', { exact: true }).count()).resolves.toBe(1);
    await dialog.getByRole('button', { name: /Version 1/ }).click();
    await dialog.getByText('Created', { exact: true }).waitFor();
    await expect(dialog.locator('.vh__line--remove').first().innerText()).resolves.toContain('Check the **tunnel**.');
    await expect(dialog.locator('.vh__line--add').first().innerText()).resolves.toContain('and the certificate');
    await dialog.getByRole('button', { name: 'Restore Version' }).click();
    await page.getByRole('status').getByText('Version Restored').waitFor();
    await expect(dialog.isVisible()).resolves.toBe(false);
    await page.getByRole('heading', { name: 'VPN troubleshooting', exact: true }).waitFor();
    await page.getByText('v3 · Updated').waitFor();
    const versions = await (
      await fetch(`${app.url}/api/knowledge-base/${vpn.id}/versions`, { headers: { Cookie: user.cookie } })
    ).json();
    expect(versions.map((v: { version: number; changeLog: string }) => `${v.version} ${v.changeLog}`)).toEqual([
      '3 Restored from version 1',
      '2 Changed title and content',
      '1 Created',
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('deletes from the category view preview after its confirmation dialog (Escape cancels)', async () => {
    const doomed = await createItem(app.db, 'knowledge', { title: 'Retired VLAN notes', content: 'x' }, user.id);
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base?view=category`);
    await pickInTree(page, 'Uncategorized', 'Retired VLAN notes');
    await page.getByRole('heading', { name: 'Retired VLAN notes', exact: true }).waitFor();
    const dialog = page.getByRole('dialog', { name: 'Delete item' });
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog
      .getByText('Are you sure you want to delete "Retired VLAN notes"? This action cannot be undone.')
      .waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await getItem(app.db, 'knowledge', doomed.id))?.title).toBe('Retired VLAN notes');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Knowledge base item deleted successfully.').waitFor();
    expect(await getItem(app.db, 'knowledge', doomed.id)).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('deletes from the grid after the confirmation dialog', async () => {
    const doomed = await createItem(app.db, 'knowledge', { title: 'Obsolete runbook', content: 'x' }, user.id);
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base`);
    const question = 'Are you sure you want to delete "Obsolete runbook"? This action cannot be undone.';
    const dialog = page.getByRole('dialog', { name: 'Delete item' });
    // Cancel keeps the item; the dialog opens again for the real delete.
    await page.getByRole('link', { name: 'Delete Obsolete runbook' }).click();
    await dialog.getByText(question).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await getItem(app.db, 'knowledge', doomed.id))?.title).toBe('Obsolete runbook');
    await page.getByRole('link', { name: 'Delete Obsolete runbook' }).click();
    await dialog.getByText(question).waitFor();
    await toastDuring(page, 'Knowledge base item deleted successfully.', () =>
      dialog.getByRole('button', { name: 'Delete' }).click(),
    );
    await page.getByRole('link', { name: 'Obsolete runbook', exact: true }).waitFor({ state: 'detached' });
    await expect(page.locator('#confirm-delete').evaluate((d: HTMLDialogElement) => d.open)).resolves.toBe(false);
    expect(await getItem(app.db, 'knowledge', doomed.id)).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });
});
