import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { createItem, getItem, listItems, updateItem } from '../../src/knowledge/service';
import { hasBrowser, signedInPage as openSignedInPage, sharedBrowser, toastDuring } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let user: TestUser;

/** A real 1×1 PNG (the server checks magic bytes). */
const PNG = [
  ...Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
];

const signedInPage = () => openSignedInPage(browser, app.url, user.cookie, { viewport: { width: 1400, height: 1000 } });

const hydrated = (page: Page) => page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
/** Waits until the editor's draft in this browser holds `text` (it is written 250 ms after the last change). */
const draftWritten = (page: Page, text: string) =>
  expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(localStorage)
          .filter((k) => k.startsWith('opshub-draft:'))
          .map((k) => localStorage.getItem(k))
          .join('\n'),
      ),
    )
    .toContain(text);
const toast = (page: Page, text: string) => page.locator('#toasts').getByText(text, { exact: true }).waitFor();

/** Pastes a file into the focused element, as a person pasting a screenshot does. */
async function paste(target: Locator, bytes = PNG, type = 'image/png') {
  await target.focus();
  await target.evaluate(
    (el, { bytes, type }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'shot.png', { type }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { bytes, type },
  );
}

/** Saves and waits for the saved item's own page (`{path}/{id}/{slug}`). */
async function saveAndReturn(page: Page, path: string) {
  await toastDuring(page, 'Success', () => page.getByRole('button', { name: 'Save', exact: true }).click());
  // The item's page (its id, maybe its slug), not the editor's own /{id}/edit: that matched at once, and the editor's
  // navigation 600 ms after the toast then aborted the test's next page.goto.
  await page.waitForURL(
    (u) => new RegExp(`^${path}/[0-9a-f-]{36}(/[a-z0-9-]+)?$`).test(u.pathname) && !u.pathname.endsWith('/edit'),
  );
}

async function findByTitle(title: string) {
  const [item] = await listItems(app.db, 'knowledge', { q: title });
  expect(item?.title).toBe(title);
  return (await getItem(app.db, 'knowledge', item.id))!;
}

describe.skipIf(!hasBrowser)('document editor in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Ada', lastName: 'Lovelace' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('creates a knowledge base article from the deep link: rich editor, pasted image, tags, new category, preview', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base?create=knowledge-base`);
    await page.waitForURL(/\/knowledge-base\/new\?type=knowledge-base$/);
    await page.getByRole('heading', { name: 'Create Knowledge Base' }).waitFor();
    await hydrated(page);
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Version History' }).count()).toBe(0);
    await page.getByLabel('Title', { exact: true }).fill('VPN tunnel reset');
    // The rich editor arrives after first paint; typing into it updates the content.
    const rich = page.locator('.editor-rich [contenteditable="true"]');
    await rich.waitFor();
    expect(await save.isDisabled()).toBe(true);
    await rich.click();
    await page.keyboard.type('Restart the tunnel from the firewall.');
    await expect.poll(() => save.isDisabled()).toBe(false);
    // Markdown view: paste a screenshot, it is uploaded and inserted as a markdown image.
    await page.getByRole('tab', { name: 'Markdown' }).click();
    const source = page.getByRole('textbox', { name: 'Content' });
    expect(await source.inputValue()).toContain('Restart the tunnel from the firewall.');
    await paste(source);
    await toast(page, 'Image Uploaded');
    await expect.poll(() => source.inputValue()).toMatch(/!\[screenshot\]\(\/objects\/[0-9a-f-]{36}\)/);
    await page
      .getByRole('list', { name: 'Attached Images' })
      .getByText(/^\/objects\//)
      .waitFor();
    // Tags: Enter adds, trimmed, duplicates ignored, removable.
    const tag = page.getByRole('textbox', { name: 'Tags' });
    await tag.fill('  vpn ');
    await tag.press('Enter');
    await tag.fill('vpn');
    await tag.press('Enter');
    await tag.fill('network');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await page.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents()).toEqual([
      'vpn×',
      'network×',
    ]);
    await page.getByRole('button', { name: 'Remove tag network' }).click();
    // A new category.
    await page.getByLabel('Category').selectOption({ label: '+ Add new category…' });
    await page.getByLabel('New category').fill('Networking');
    await page.getByRole('button', { name: 'Add', exact: true }).first().click();
    await toast(page, 'Category Added');
    await page.locator('#toasts').getByText('Networking has been set as the category.').waitFor();
    // Preview renders through the server's renderer.
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByLabel('Preview').getByText('Restart the tunnel from the firewall.').waitFor();
    expect(await page.getByLabel('Preview').locator('img[src^="/objects/"]').count()).toBe(1);
    await page.getByRole('tab', { name: 'Edit' }).click();
    await saveAndReturn(page, '/knowledge-base');
    await page.getByText('VPN tunnel reset').first().waitFor();
    const item = await findByTitle('VPN tunnel reset');
    expect(item).toMatchObject({ category: 'Networking', tags: ['vpn'], version: 1, templateType: null });
    expect(item.content).toContain('Restart the tunnel from the firewall.');
    expect(item.attachedImages).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('creates a work instruction from its deep link with the SOP skeleton and the sop category', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base?create=work-instruction`);
    await page.getByRole('heading', { name: 'Create Work Instruction' }).waitFor();
    await hydrated(page);
    await page.getByLabel('Title', { exact: true }).fill('Patch Windows servers');
    await page.getByRole('tab', { name: 'Markdown' }).click();
    expect(await page.getByRole('textbox', { name: 'Content' }).inputValue()).toContain('## Procedure');
    await saveAndReturn(page, '/knowledge-base');
    const item = await findByTitle('Patch Windows servers');
    expect(item).toMatchObject({ category: 'sop', templateType: 'work_instruction' });
    expect(item.content).toContain('## Procedure');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('how-to guide: fills the form with a pasted, resized screenshot, saves, reopens with the form, edits, and restores version 1', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base?create=how-to-guide`);
    await page.getByRole('heading', { name: 'Create How-To Guide' }).waitFor();
    await hydrated(page);
    await page.getByLabel('Title', { exact: true }).fill('Reset MFA');
    await page.getByLabel('Purpose', { exact: true }).fill('Reset a user MFA method.');
    await page.getByLabel('Access Required').fill('Helpdesk role');
    await page.getByLabel('Step 1 title').fill('Open the admin portal');
    await page.getByLabel('Step 1 description').fill('Sign in with your admin account.');
    expect(await page.getByRole('button', { name: /^Remove step/ }).count()).toBe(0); // at least one step stays
    await paste(page.getByRole('textbox', { name: 'Paste a screenshot for step 1' }));
    await toast(page, 'Image Uploaded');
    const shot = page.getByRole('img', { name: 'Step 1 screenshot' });
    await shot.waitFor();
    expect(await shot.getAttribute('width')).toBe('300');
    const width = page.getByLabel('Step 1 screenshot width');
    await width.fill('40');
    await width.blur();
    expect(await width.inputValue()).toBe('100'); // resize minimum 100 × 60
    await width.fill('250');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 2 title').fill('Remove the old method');
    await page.getByLabel('Tips 1').fill('Call the user first.');
    expect(await page.getByRole('button', { name: 'Remove tip 1' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add tip' }).click();
    await page.getByRole('button', { name: 'Remove tip 2' }).click();
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByLabel('Preview').getByRole('heading', { name: 'Step 2: Remove the old method' }).waitFor();
    expect(await page.getByLabel('Preview').locator('img[width="250"]').count()).toBe(1);
    await page.getByRole('tab', { name: 'Edit' }).click();
    await saveAndReturn(page, '/knowledge-base');

    const saved = await findByTitle('Reset MFA');
    expect(saved).toMatchObject({ category: 'how-to', templateType: 'how_to_guide', version: 1 });
    expect(saved.formModel).toMatchObject({
      kind: 'howto',
      purpose: 'Reset a user MFA method.',
      tips: ['Call the user first.'],
    });
    expect(saved.content).toMatch(/<!-- width=250px height=auto -->\n!\[Step 1\]\(\/objects\/[0-9a-f-]{36}\)/);
    expect(saved.content).toContain('### Step 2: Remove the old method');

    // Reopen: the form comes back, then edit → version 2.
    await page.goto(`${app.url}/knowledge-base/${saved.id}/edit`);
    await page.getByRole('heading', { name: 'Edit How-To Guide' }).waitFor();
    await hydrated(page);
    expect(await page.getByLabel('Purpose', { exact: true }).inputValue()).toBe('Reset a user MFA method.');
    expect(await page.getByLabel('Step 2 title').inputValue()).toBe('Remove the old method');
    expect(await page.getByRole('img', { name: 'Step 1 screenshot' }).getAttribute('width')).toBe('250');
    await page.getByLabel('Purpose', { exact: true }).fill('Reset a user MFA method safely.');
    await saveAndReturn(page, '/knowledge-base');
    expect((await getItem(app.db, 'knowledge', saved.id))!.version).toBe(2);

    // Version History: version 2 is current; restore version 1.
    await page.goto(`${app.url}/knowledge-base/${saved.id}/edit`);
    await hydrated(page);
    expect(await page.getByLabel('Purpose', { exact: true }).inputValue()).toBe('Reset a user MFA method safely.');
    await page.getByRole('button', { name: 'Version History' }).click();
    const dialog = page.getByRole('dialog', { name: 'Version History' });
    await dialog.getByRole('button', { name: /Version 2\s*Current/ }).waitFor();
    await dialog.getByRole('button', { name: /^Version 1/ }).click();
    await dialog.getByRole('button', { name: 'Restore Version' }).click();
    await toast(page, 'Version Restored');
    await expect.poll(() => page.getByLabel('Purpose', { exact: true }).inputValue()).toBe('Reset a user MFA method.');
    const restored = (await getItem(app.db, 'knowledge', saved.id))!;
    expect(restored.version).toBe(3);
    expect(restored.formModel).toMatchObject({ purpose: 'Reset a user MFA method.' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('build document: fills the form with a screenshot, keeps the list rules, saves and reopens with the form', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base?create=build-document`);
    await page.getByRole('heading', { name: 'Create Build Document' }).waitFor();
    await hydrated(page);
    await page.getByLabel('Title', { exact: true }).fill('Build web01');
    await page.getByLabel('Server Name').fill('web01');
    await page.getByLabel('Environment').selectOption('Staging');
    await page.getByLabel('OS Version').fill('Ubuntu 24.04 LTS');
    await page.getByLabel('Server Purpose').fill('Intranet web server');
    await page.getByLabel('Step 1 title').fill('Install the OS');
    await page.getByLabel('Step 1 objective').fill('A patched base system');
    await page.getByLabel('Step 1 actions 1').fill('Boot the ISO');
    await page.getByRole('button', { name: 'Add action' }).click();
    await page.getByLabel('Step 1 actions 2').fill('Partition the disk');
    await page.getByLabel('Step 1 commands').fill('apt update && apt upgrade -y');
    await page.getByLabel('Step 1 expected result').fill('Login prompt');
    await paste(page.getByRole('textbox', { name: 'Paste a screenshot for build step 1' }));
    await toast(page, 'Image Uploaded');
    await page.getByRole('img', { name: 'Step 1 screenshot 1' }).waitFor();
    // Emptied lists reset to one empty item.
    await page.getByLabel('Post-Build Tasks 1').fill('wrong');
    await page.getByRole('button', { name: 'Remove task 1' }).click();
    expect(await page.getByLabel('Post-Build Tasks 1').inputValue()).toBe('');
    await page.getByLabel('Post-Build Tasks 1').fill('Add to monitoring');
    await page.getByLabel('Completion Checklist 1').fill('Backups configured');
    expect(await page.getByRole('button', { name: /^Remove build step/ }).count()).toBe(0);
    await saveAndReturn(page, '/knowledge-base');

    const saved = await findByTitle('Build web01');
    expect(saved).toMatchObject({ category: 'build', templateType: 'build_document' });
    expect(saved.formModel).toMatchObject({
      kind: 'build',
      serverName: 'web01',
      environment: 'Staging',
      postBuildTasks: ['Add to monitoring'],
    });
    expect(saved.content).toContain('| Server Name | web01 |');
    expect(saved.content).toContain('1. Boot the ISO\n2. Partition the disk');
    expect(saved.content).toMatch(/!\[Step 1 screenshot 1\]\(\/objects\//);

    await page.goto(`${app.url}/knowledge-base/${saved.id}/edit`);
    await page.getByRole('heading', { name: 'Edit Build Document' }).waitFor();
    await hydrated(page);
    expect(await page.getByLabel('Server Name').inputValue()).toBe('web01');
    expect(await page.getByLabel('Environment').inputValue()).toBe('Staging');
    expect(await page.getByLabel('Step 1 actions 2').inputValue()).toBe('Partition the disk');
    await page.getByRole('img', { name: 'Step 1 screenshot 1' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('documents: Create Document, a template type fills its skeleton, then Edit Document from the list', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/documents/new`);
    await page.getByRole('heading', { name: 'Create Document' }).waitFor();
    await hydrated(page);
    await page.getByRole('switch', { name: 'Template' }).check();
    const type = page.getByLabel('Template Type');
    expect(await type.locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['Work Instruction (SOP)', 'How-To Guide']),
    );
    await type.selectOption({ label: 'Troubleshooting' });
    await page.getByRole('tab', { name: 'Markdown' }).click();
    expect(await page.getByRole('textbox', { name: 'Content' }).inputValue()).toContain('## Resolution Steps');
    await page.getByLabel('Title', { exact: true }).fill('Printer troubleshooting template');
    await saveAndReturn(page, '/documents');
    await page.goto(`${app.url}/documents`);
    await page.getByRole('link', { name: 'Printer troubleshooting template', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Document' }).waitFor();
    await hydrated(page);
    expect(await page.getByRole('switch', { name: 'Template' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Template Type').inputValue()).toBe('troubleshooting');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a stale save shows the conflict, keeps the text, opens the newer version side by side and saves over it', async () => {
    const doc = await createItem(
      app.db,
      'documents',
      { title: 'Firewall runbook', content: 'Original text.' },
      user.id,
    );
    const { context, page } = await signedInPage();
    await page.goto(`${app.url}/documents/${doc.id}/edit`);
    await hydrated(page);
    await page.getByLabel('Title', { exact: true }).fill('Firewall runbook (mine)');
    await updateItem(
      app.db,
      'documents',
      doc.id,
      { title: 'Firewall runbook', content: 'Changed by a colleague.', version: 1 },
      user.id,
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('This item was changed elsewhere.').waitFor();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Firewall runbook (mine)');
    await page.getByRole('button', { name: 'Open newer version side by side' }).click();
    const theirs = page.getByRole('region', { name: 'Newer version' });
    await theirs.getByText('Changed by a colleague.').waitFor();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Firewall runbook (mine)');
    // Nothing typed is lost, even across a reload (once the draft is written, 250 ms after the last change).
    await draftWritten(page, 'Firewall runbook (mine)');
    await page.reload();
    await hydrated(page);
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Firewall runbook (mine)');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Open newer version side by side' }).click();
    await theirs.getByRole('button', { name: 'Keep my changes' }).click();
    await saveAndReturn(page, '/documents');
    const saved = (await getItem(app.db, 'documents', doc.id))!;
    expect(saved).toMatchObject({ title: 'Firewall runbook (mine)', version: 3 });
    await context.close();
  });

  it('AI buttons: disabled while their field is empty; enhance a field, then "No Enhancement"; Enhance with AI fills the content once accepted', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base/new?type=knowledge-base`);
    await hydrated(page);
    const titleAi = page.getByRole('button', { name: 'Enhance title with AI' });
    const enhance = page.getByRole('button', { name: 'Enhance with AI' });
    expect(await titleAi.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Enhance excerpt with AI' }).isDisabled()).toBe(true);
    expect(await enhance.isDisabled()).toBe(true);
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('reset the vpn tunnel');
    const accept = page.getByRole('region', { name: 'AI proposal' }).getByRole('button', { name: 'Accept' });
    await titleAi.click();
    await accept.click();
    await toast(page, 'Content Enhanced');
    await expect.poll(() => title.inputValue()).not.toBe('reset the vpn tunnel');
    await titleAi.click();
    await toast(page, 'No Enhancement');
    await page.locator('#toasts').getByText("AI couldn't improve the title further.").waitFor();
    await page.getByRole('tab', { name: 'Markdown' }).click();
    await page
      .getByRole('textbox', { name: 'Content' })
      .fill('restart the tunnel on the firewall. then check the vpn logs for errors.');
    await enhance.click();
    await accept.click();
    await toast(page, 'Content Enhanced');
    expect(await page.getByLabel('Excerpt', { exact: true }).inputValue()).not.toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an unsaved draft survives a reload; dropped non-images and failed uploads are refused with the spec texts', async () => {
    const { context, page } = await signedInPage();
    await page.goto(`${app.url}/documents/new`);
    await hydrated(page);
    await page.getByLabel('Title', { exact: true }).fill('Half-written note');
    await page.getByRole('tab', { name: 'Markdown' }).click();
    await page.getByRole('textbox', { name: 'Content' }).fill('Draft body');
    await draftWritten(page, 'Draft body');
    await page.reload();
    await hydrated(page);
    await page.getByText(/Restored your unsaved draft/).waitFor();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Half-written note');
    await page.getByRole('tab', { name: 'Markdown' }).click();
    expect(await page.getByRole('textbox', { name: 'Content' }).inputValue()).toBe('Draft body');

    const zone = page.getByLabel('Content drop area');
    await zone.evaluate((el) => {
      const data = new DataTransfer();
      data.items.add(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
      el.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.getByText('Drop images here').waitFor();
    await zone.evaluate((el) => {
      const data = new DataTransfer();
      data.items.add(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
      el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await toast(page, 'Invalid File');
    await page.locator('#toasts').getByText('Please drop image files only.').waitFor();
    expect(await page.getByText('Drop images here').count()).toBe(0);

    await paste(page.getByRole('textbox', { name: 'Content' }), [...Buffer.from('not really a png')], 'image/png');
    await toast(page, 'Upload Error');
    await page.locator('#toasts').getByText('Failed to upload screenshot. Please try again.').waitFor();
    expect(await page.getByRole('textbox', { name: 'Content' }).inputValue()).toBe('Draft body');

    // A title over 255 characters is refused by the server with the spec's validation text.
    await page.getByLabel('Title', { exact: true }).fill('x'.repeat(300));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Validation Error');
    await page.locator('#toasts').getByText('Please check your input and try again.').waitFor();

    await page.getByRole('button', { name: 'Discard draft' }).click();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL((u) => u.pathname === '/documents');
    await context.close();
  });
});
