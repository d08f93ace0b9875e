import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Dialog, Page } from 'playwright-core';
import { userPreferences } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;

const DRAFT_KEY = 'opshub-draft:/api/documents:new:document';

/** A signed-in user whose Settings › Auto-save documents is `autoSave`. */
async function userWith(autoSave: boolean): Promise<TestUser> {
  const user = await createSignedInUser(app.db);
  await app.db.insert(userPreferences).values({ userId: user.id, autoSave });
  return user;
}

/** A page of a fresh browser signed in as `user`, on the new-document editor once it is hydrated. */
async function openEditor(
  user: TestUser,
  opts: { fakeClock?: boolean } = {},
): Promise<{ page: Page; problems: string[]; dialogs: Dialog[]; close(): Promise<void> }> {
  const context = await signedInContext(browser, app.url, user.cookie);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  const dialogs: Dialog[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', (d) => dialogs.push(d));
  if (opts.fakeClock) await page.clock.install();
  await page.goto(`${app.url}/documents/new`);
  await hydrated(page);
  return { page, problems, dialogs, close: () => context.close() };
}

const hydrated = (page: Page) => page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
const draftKeys = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('opshub-draft:')));
const title = (page: Page) => page.getByLabel('Title', { exact: true });

/** Types like a person (a click gives the page the user activation a leave warning needs). */
async function typeTitle(page: Page, text: string) {
  await title(page).click();
  await page.keyboard.type(text);
}

describe.skipIf(!hasBrowser)('Settings › Auto-save documents in the editor', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('on: a typed change is kept in the browser and offered again after a reload, without asking on leave', async () => {
    const { page, problems, dialogs, close } = await openEditor(await userWith(true));
    await typeTitle(page, 'Kept while typing');
    await expect.poll(() => draftKeys(page)).toEqual([DRAFT_KEY]);
    await page.reload();
    await hydrated(page);
    await page.getByText(/Restored your unsaved draft/).waitFor();
    expect(await title(page).inputValue()).toBe('Kept while typing');
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    await close();
  });

  it('off: nothing is stored while typing, and leaving with unsaved changes asks first', async () => {
    const { page, problems, dialogs, close } = await openEditor(await userWith(false), { fakeClock: true });
    await typeTitle(page, 'Not kept');
    await page.clock.runFor(700); // longer than the draft debounce, at once
    expect(await draftKeys(page)).toEqual([]);

    // Staying keeps the text; leaving after confirming goes.
    page.once('dialog', (d) => void d.dismiss());
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect.poll(() => dialogs.map((d) => d.type())).toEqual(['beforeunload']);
    expect(new URL(page.url()).pathname).toBe('/documents/new');
    expect(await title(page).inputValue()).toBe('Not kept');

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(dialogs.map((d) => d.type())).toEqual(['beforeunload', 'beforeunload']);
    expect(await draftKeys(page)).toEqual([]);
    expect(problems).toEqual([]);
    await close();
  });

  it('off: a draft kept earlier is neither offered nor removed; an untouched editor and Cancel leave without asking', async () => {
    const user = await userWith(false);
    const { page, dialogs, close } = await openEditor(user);
    const earlier = {
      fields: { title: 'From an earlier visit', content: 'Body' },
      baseVersion: null,
      savedAt: new Date().toISOString(),
    };
    await page.evaluate(([key, d]) => localStorage.setItem(key, d), [DRAFT_KEY, JSON.stringify(earlier)]);
    await page.reload();
    await hydrated(page);
    expect(await title(page).inputValue()).toBe('');
    expect(await page.getByText(/Restored your unsaved draft/).count()).toBe(0);

    await title(page).click();
    await page.getByRole('link', { name: 'Dashboard' }).click(); // nothing changed: no question
    await page.waitForURL((u) => u.pathname === '/');

    await page.goto(`${app.url}/documents/new`);
    await hydrated(page);
    await typeTitle(page, 'Thrown away');
    await page.getByRole('link', { name: 'Cancel' }).click(); // Cancel discards on purpose: no question either
    await page.waitForURL((u) => u.pathname === '/documents');
    expect(dialogs).toEqual([]);
    expect(JSON.parse((await page.evaluate((key) => localStorage.getItem(key), DRAFT_KEY))!)).toEqual(earlier);
    await close();
  });
});
