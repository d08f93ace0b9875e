import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../../src/knowledge/service';
import { embedder, embedDueItems, setEmbeddingsEndpoint } from '../../src/embeddings/service';
import type { Logger } from '../../src/http/logger';
import { startFakeEmbeddings, type FakeEmbeddings } from '../embeddings/fake-embeddings';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/**
 * Issue 26 in the browser: the global search finds a runbook by a word it does not contain ("restart" for a text
 * that says "reboot"), and opening the result lands on the heading that matched, on a phone and a desktop.
 */

let app: RunningApp;
let fake: FakeEmbeddings;
let browser: Browser;
let user: TestUser;
let itemId: string;
const quiet = { warn: () => undefined } as unknown as Logger;

describe.skipIf(!hasBrowser)('search by meaning in the browser', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    fake = await startFakeEmbeddings();
    app = await startApp();
    setEmbeddingsEndpoint(
      { baseUrl: fake.url, model: 'fake-a', apiKey: undefined, minSimilarity: 0.35, queryTimeoutMs: 5_000 },
      quiet,
    );
    user = await createSignedInUser(app.db, { role: 'editor' });
    const filler = Array.from({ length: 60 }, (_, i) => `Payroll batch step ${i}: check the totals.`).join('\n\n');
    const item = await createItem(
      app.db,
      'knowledge',
      {
        title: 'Payroll host maintenance',
        content: `${filler}\n\n## Reboot the payroll host\n\nDrain the queue, then reboot the host.\n`,
        isPublished: true,
      },
      user.id,
    );
    itemId = item.id;
    expect(await embedDueItems(app.db, embedder()!)).toMatchObject({ embedded: 1, failure: null });
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    setEmbeddingsEndpoint(undefined, quiet);
    await app?.stop();
    await fake?.close();
  });

  for (const viewport of [
    { width: 360, height: 740 },
    { width: 1366, height: 768 },
  ]) {
    it(`${viewport.width}×${viewport.height}: "restart" finds the reboot section and opens it at its heading`, async () => {
      const context = await signedInContext(browser, app.url, user.cookie, { viewport });
      const page = await context.newPage();
      await page.goto(`${app.url}/knowledge-base`);
      const box = page.getByRole('combobox', { name: 'Search documents' });
      if (!(await box.isVisible())) await page.getByRole('button', { name: 'Search' }).first().click();
      await box.fill('restart');
      const option = page.getByRole('listbox', { name: 'Search results' }).getByRole('option');
      await option.first().waitFor({ timeout: 10_000 });
      expect(await option.allInnerTexts()).toEqual([expect.stringContaining('Payroll host maintenance')]);
      await box.press('Enter');
      await page.waitForURL(new RegExp(`/knowledge-base/${itemId}/[^#]*#reboot-the-payroll-host$`));
      const heading = page.getByRole('heading', { name: 'Reboot the payroll host' });
      await heading.waitFor();
      await expect(heading.evaluate((h) => h.getBoundingClientRect().top)).resolves.toBeLessThan(viewport.height);
      await expect(page.evaluate(() => window.scrollY)).resolves.toBeGreaterThan(0);
      await context.close();
    });
  }
});
