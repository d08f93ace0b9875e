import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createItem, getItem, listVersions } from '../../src/knowledge/service';
import { hasBrowser, signedInPage as openSignedInPage, sharedBrowser, toastDuring } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Issue 20 in the editor: toolbar, sticky Save bar, Ctrl+S, AI proposals, change notes, drafts kept on reload. */

let app: RunningApp;
let browser: Browser;
let user: TestUser;

const signedInPage = () => openSignedInPage(browser, app.url, user.cookie, { viewport: { width: 1400, height: 900 } });

const hydrated = (page: Page) => page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
const toast = (page: Page, text: string) => page.locator('#toasts').getByText(text, { exact: true }).waitFor();
const markdown = async (page: Page) => {
  await page.getByRole('tab', { name: 'Markdown' }).click();
  return page.getByRole('textbox', { name: 'Content' }).inputValue();
};

/** Opens a new knowledge base article with the rich editor loaded and focused. */
async function newArticle(page: Page) {
  await page.goto(`${app.url}/knowledge-base/new?type=knowledge-base`);
  await hydrated(page);
  await page.getByLabel('Title', { exact: true }).fill('Toolbar article');
  const rich = page.locator('.editor-rich [contenteditable="true"]');
  await rich.click();
  return {
    rich,
    tool: (name: string) => page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name }),
  };
}

/** A saved knowledge item, opened in the editor. */
async function editExisting(page: Page, title: string, content = 'First line.') {
  const item = await createItem(app.db, 'knowledge', { title, content }, user.id);
  await page.goto(`${app.url}/knowledge-base/${item.id}/edit`);
  await hydrated(page);
  return item;
}

describe.skipIf(!hasBrowser)('editor, everyday use (issue 20), in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Grace', lastName: 'Hopper' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('the rich-text toolbar: bold gives **text**; undo and redo', async () => {
    const { context, page, problems } = await signedInPage();
    const { rich, tool } = await newArticle(page);
    await page.keyboard.type('Restart nginx');
    await page.keyboard.press('ControlOrMeta+a');
    await tool('Bold').click();
    await rich.locator('strong', { hasText: 'Restart nginx' }).waitFor();
    expect(await tool('Bold').getAttribute('aria-pressed')).toBe('true');
    await tool('Undo').click();
    await rich.locator('strong').waitFor({ state: 'detached' });
    await tool('Redo').click();
    await rich.locator('strong').waitFor();
    expect(await markdown(page)).toBe('**Restart nginx**');

    expect(problems).toEqual([]);
    await context.close();
  });

  it('the rich-text toolbar: headings, lists and links', async () => {
    const { context, page, problems } = await signedInPage();
    const { rich, tool } = await newArticle(page);
    await page.keyboard.type('Restart nginx');
    await page.getByRole('combobox', { name: 'Block type' }).selectOption('Heading 2');
    await rich.locator('h2', { hasText: 'Restart nginx' }).waitFor();
    await page.keyboard.press('ArrowRight'); // the caret is back in the text: to the end of the heading
    await page.keyboard.press('Enter');
    await tool('Bulleted list').click();
    await page.keyboard.type('Check the config');
    await page.keyboard.press('Enter'); // an empty item: Enter again ends the list
    await page.keyboard.press('Enter');
    await page.keyboard.type('See the docs');
    await page.keyboard.down('Shift');
    for (let i = 0; i < 'the docs'.length; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.up('Shift');
    await tool('Link').click();
    await page.getByRole('textbox', { name: 'Link URL' }).fill('https://nginx.org/en/docs/');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await rich.getByRole('link', { name: 'the docs' }).waitFor();
    expect(await markdown(page)).toBe(
      '## Restart nginx\n\n* Check the config\n\nSee [the docs](https://nginx.org/en/docs/)',
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the toolbar inserts a table (shown as markdown) and a code block', async () => {
    const { context, page, problems } = await signedInPage();
    const { tool } = await newArticle(page);
    await page.keyboard.type('Before the code');
    await tool('Code block').click();
    const code = page.getByRole('textbox', { name: 'Code' });
    await code.fill('systemctl restart nginx');
    await code.press('End');
    await page.keyboard.press('Enter'); // keys typed in the code stay there
    await page.keyboard.type('nginx -t');
    await expect.poll(() => markdown(page)).toBe('Before the code\n\n```\nsystemctl restart nginx\nnginx -t\n```');

    await page.getByRole('tab', { name: 'Rich text' }).click();
    await page.locator('.editor-rich [contenteditable="true"] p', { hasText: 'Before the code' }).click();
    await page.keyboard.press('End');
    await tool('Table').click();
    await page.getByText('Tables are edited in the Markdown view.').waitFor();
    const source = page.getByRole('textbox', { name: 'Content' });
    expect(await source.inputValue()).toBe(
      'Before the code\n\n| Column 1 | Column 2 | Column 3 |\n| --- | --- | --- |\n|  |  |  |\n|  |  |  |\n\n```\nsystemctl restart nginx\nnginx -t\n```',
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the Save bar stays in view on a long how-to guide; tag chips are small; the preview shows the title once', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base/new?type=how-to-guide`);
    await hydrated(page);
    await page.getByLabel('Title', { exact: true }).fill('Rotate the web logs');
    for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 7 title').waitFor();
    await page.getByRole('button', { name: 'Add tip' }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(600);
    const save = page.getByRole('button', { name: 'Save', exact: true });
    // Not only inside the viewport: nothing (such as the page header) covers it.
    const onTop = await save.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return (
        r.top >= 0 &&
        r.bottom <= window.innerHeight &&
        document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === el
      );
    });
    expect(onTop).toBe(true);

    const tagInput = page.getByRole('textbox', { name: 'Tags' });
    await tagInput.fill('logs');
    await tagInput.press('Enter');
    const chip = page.getByRole('list', { name: 'Tags' }).getByRole('listitem');
    const box = (await chip.boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(24);
    expect(box.width).toBeLessThanOrEqual(64);

    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.locator('.editor-main article');
    await preview.getByRole('heading', { name: 'Purpose' }).waitFor();
    expect(await preview.getByRole('heading', { name: 'Rotate the web logs' }).count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Ctrl+S saves (the browser does not get it), with the change note as the version’s change log', async () => {
    const { context, page, problems } = await signedInPage();
    const item = await editExisting(page, 'Renew the wildcard certificate');
    await page.evaluate(() => {
      window.addEventListener('keydown', (e) => {
        if (e.key === 's') document.body.dataset.saveKeyPrevented = String(e.defaultPrevented);
      });
    });
    await page.getByLabel('Title', { exact: true }).fill('Renew the wildcard TLS certificate');
    await page.getByLabel('Change note (optional)').fill('Named the certificate type');
    await toastDuring(page, 'Success', () => page.getByLabel('Title', { exact: true }).press('Control+s'));
    expect(await page.evaluate(() => document.body.dataset.saveKeyPrevented)).toBe('true');
    await expect.poll(async () => (await getItem(app.db, 'knowledge', item.id))?.version).toBe(2);
    const versions = await listVersions(app.db, 'knowledge', item.id, { id: user.id, role: 'editor' });
    expect(versions.map((v) => v.changeLog)).toEqual(['Named the certificate type', 'Created']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Version History shows what a save without a note changed', async () => {
    const { context, page } = await signedInPage();
    const item = await editExisting(page, 'Patch the jump hosts');
    await page.getByLabel('Title', { exact: true }).fill('Patch the Linux jump hosts');
    await page.getByLabel('Excerpt', { exact: true }).fill('Monthly patching');
    await toastDuring(page, 'Success', () => page.getByRole('button', { name: 'Save', exact: true }).click());
    // Saving leads to the item's page, whose Version History is the editor's.
    await page.waitForURL((u) => u.pathname.startsWith(`/knowledge-base/${item.id}/`) && !u.pathname.endsWith('/edit'));
    await page.getByRole('button', { name: 'Version History' }).click();
    const dialog = page.getByRole('dialog', { name: 'Version History' });
    await dialog.getByRole('button', { name: /Version 2/ }).click();
    await dialog.getByLabel('Version preview').getByText('Changed title and excerpt', { exact: true }).waitFor();
    await context.close();
  });

  it('AI proposals: shown beside the current text; Discard keeps it, Accept applies it, Undo takes it back', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base/new?type=knowledge-base`);
    await hydrated(page);
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('reset the vpn tunnel');
    const titleAi = page.getByRole('button', { name: 'Enhance title with AI' });
    const proposal = page.getByRole('region', { name: 'AI proposal' });
    const undo = page.getByRole('status').filter({ hasText: 'The AI proposal was applied.' }).getByRole('button');

    await titleAi.click();
    await proposal.waitFor();
    expect(await proposal.getByRole('definition').first().textContent()).toBe('reset the vpn tunnel');
    const proposed = (await proposal.getByRole('definition').nth(1).textContent())!;
    expect(proposed).not.toBe('reset the vpn tunnel');
    expect(await title.inputValue()).toBe('reset the vpn tunnel');
    await proposal.getByRole('button', { name: 'Discard' }).click();
    await proposal.waitFor({ state: 'detached' });
    expect(await title.inputValue()).toBe('reset the vpn tunnel');

    await titleAi.click();
    await proposal.getByRole('button', { name: 'Accept' }).click();
    await toast(page, 'Content Enhanced');
    expect(await title.inputValue()).toBe(proposed);
    await undo.click();
    expect(await title.inputValue()).toBe('reset the vpn tunnel');

    // Enhance with AI: the content's change as a line diff; nothing changes before Accept.
    const before = 'restart the tunnel on the firewall. then check the vpn logs for errors.';
    await page.getByRole('tab', { name: 'Markdown' }).click();
    const content = page.getByRole('textbox', { name: 'Content' });
    await content.fill(before);
    await page.getByRole('button', { name: 'Enhance with AI' }).click();
    const contentChange = proposal.getByRole('region', { name: 'Proposed content' });
    await contentChange.locator('.vh__line--remove', { hasText: before }).waitFor();
    expect(await contentChange.locator('.vh__line--add').count()).toBeGreaterThan(0);
    expect(await content.inputValue()).toBe(before);
    await proposal.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => markdown(page)).not.toBe(before);
    expect(await page.getByLabel('Excerpt', { exact: true }).inputValue()).not.toBe('');
    await undo.click();
    await expect.poll(() => markdown(page)).toBe(before);
    expect(await page.getByLabel('Excerpt', { exact: true }).inputValue()).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a reload right after typing keeps every keystroke in the draft', async () => {
    const { context, page } = await signedInPage();
    await page.goto(`${app.url}/documents/new`);
    await hydrated(page);
    await page.getByLabel('Title', { exact: true }).fill('Quick note');
    await page.getByRole('tab', { name: 'Markdown' }).click();
    const content = page.getByRole('textbox', { name: 'Content' });
    await content.fill('Typed just before the reload');
    await page.reload();
    await hydrated(page);
    await page.getByText(/Restored your unsaved draft/).waitFor();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Quick note');
    expect(await markdown(page)).toBe('Typed just before the reload');
    await context.close();
  });
});
