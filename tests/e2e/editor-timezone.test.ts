import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { userPreferences } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let user: TestUser;

/** A draft of a new document as the editor stores it, saved at a fixed instant. */
const draft = {
  fields: {
    title: 'Night shift notes',
    excerpt: '',
    technology: '',
    domain: '',
    category: '',
    tags: [],
    isPublished: false,
    isTemplate: false,
    templateType: null,
    attachedImages: [],
    content: 'Body',
    form: null,
  },
  baseVersion: null,
  savedAt: '2026-11-20T17:30:00.000Z', // 1:30 am on 21 Nov in Perth (UTC+8); 12:30 pm on 20 Nov in New York
};

describe.skipIf(!hasBrowser)('document editor times in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db);
    await app.db.insert(userPreferences).values({ userId: user.id, timezone: 'Australia/Perth' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("says when a restored draft was saved in the saved timezone, not the browser's", async () => {
    const context = await signedInContext(browser, app.url, user.cookie, { timezoneId: 'America/New_York' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${app.url}/documents/new`);
    await page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
    await page.evaluate(
      (d) => localStorage.setItem('opshub-draft:/api/documents:new:document', JSON.stringify(d)),
      draft,
    );
    await page.reload();
    await page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
    const banner = page.getByText(/Restored your unsaved draft/);
    await banner.waitFor();
    expect(await banner.textContent()).toBe('Restored your unsaved draft from 21 Nov 2026, 1:30 am.');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Night shift notes');
    expect(problems).toEqual([]);
    await context.close();
  });
});
