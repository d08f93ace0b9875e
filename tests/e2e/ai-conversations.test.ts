import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';
import { seedInventory } from '../ai/seed';

/**
 * Issue 26 in Chromium, on a phone and a laptop: a question asked in the /ai chat is a saved conversation; after a
 * reload it is under "Recent conversations", opens read-only, continues in the chat and is deleted.
 */

let app: RunningApp;
let browser: Browser;

const CONVERSATION_KEY = 'ai-chat-messages-conversation';
const storedId = (page: Page) => page.evaluate((key) => sessionStorage.getItem(key), CONVERSATION_KEY);

/** Sends a question from the page's chat and waits for its streamed answer to finish. */
async function askInChat(page: Page, query: string, answerText: string) {
  const chat = page.locator('.chat');
  await chat.getByPlaceholder('Ask me anything about your infrastructure...').fill(query);
  await chat.getByRole('button', { name: 'Send' }).click();
  await chat.getByText(answerText, { exact: false }).first().waitFor();
  await chat.getByText('Streaming response in real-time...').waitFor({ state: 'detached' });
}

/** Nothing wider than the screen (a 360px phone must not scroll sideways). */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe.skipIf(!hasBrowser)('Ops AI conversations in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    await seedInventory(app.db, (await createSignedInUser(app.db)).id);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it.each([
    [360, 740],
    [1366, 768],
  ])(
    'at %ipx: ask, reload, find it under Recent conversations, open it, continue it, delete it',
    async (width, height) => {
      const user = await createSignedInUser(app.db, { firstName: 'Ada', lastName: 'Ops' });
      const { context, page, problems } = await signedInPage(browser, app.url, user.cookie, {
        viewport: { width, height },
      });
      const recent = page.getByRole('list', { name: 'Recent conversations' });
      try {
        await page.goto(`${app.url}/ai`);
        await page.locator('app-island[data-name="OpsChat"][data-hydrated]').first().waitFor();
        await expect(page.getByText('No conversations yet').isVisible()).resolves.toBe(true);

        await askInChat(page, 'Show me all servers in Auburn location', 'AUB-POS-01');
        const id = await storedId(page);
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        await askInChat(page, 'Who are the support team contacts?', 'Alice Nguyen');
        expect(await storedId(page)).toBe(id); // the follow-up stayed in it

        await page.reload();
        const entry = recent.getByRole('link', { name: /Show me all servers in Auburn location/ });
        await entry.waitFor();
        await expect(recent.getByRole('listitem').count()).resolves.toBe(1);
        await expect(page.locator('.chat').getByText('4 messages').isVisible()).resolves.toBe(true);
        expect(await fitsWidth(page)).toBe(true);

        await entry.click();
        await page.waitForURL(`${app.url}/ai/c/${id}`);
        const transcript = page.getByRole('list', { name: 'Conversation' });
        await transcript.getByRole('link', { name: 'AUB-POS-01' }).waitFor();
        await expect(transcript.getByText('Who are the support team contacts?').isVisible()).resolves.toBe(true);
        await expect(transcript.getByText('Alice Nguyen').isVisible()).resolves.toBe(true);
        expect(await fitsWidth(page)).toBe(true);

        // Continue: back in the chat with both exchanges, the address clean again.
        await sessionClear(page);
        await page.getByRole('link', { name: 'Continue' }).click();
        await page.waitForURL(`${app.url}/ai`);
        await page.locator('.chat').getByText('4 messages').waitFor();
        expect(await storedId(page)).toBe(id);

        await page.goto(`${app.url}/ai/c/${id}`);
        await page.getByRole('button', { name: 'Delete' }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete Conversation' });
        await dialog
          .getByText(
            'Are you sure you want to delete "Show me all servers in Auburn location"? This action cannot be undone.',
          )
          .waitFor();
        await dialog.getByRole('button', { name: 'Delete' }).click();
        await page.waitForURL(`${app.url}/ai`);
        await page.getByText('Conversation deleted').waitFor();
        await expect(page.getByText('No conversations yet').isVisible()).resolves.toBe(true);
        expect((await page.request.get(`${app.url}/ai/c/${id}`)).status()).toBe(404);

        // The chat still holds the deleted conversation's id: its next question starts a new one.
        await page.locator('app-island[data-name="OpsChat"][data-hydrated]').first().waitFor();
        await askInChat(page, 'Check server status', 'Status of 5 servers');
        const next = await storedId(page);
        expect(next).toMatch(/^[0-9a-f-]{36}$/);
        expect(next).not.toBe(id);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});

/** Another tab's state: the chat forgets what it had, so what Continue shows comes from the server. */
const sessionClear = (page: Page) => page.evaluate(() => sessionStorage.clear());
