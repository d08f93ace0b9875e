import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobs } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { runImportJob } from '../../src/imports/run';
import { savePreview } from '../../src/imports/service';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { PNG, zip } from '../imports/zips';

let app: RunningApp;
let browser: Browser;
let editor: TestUser;

describe.skipIf(!hasBrowser)('import in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    editor = await createSignedInUser(app.db, { role: 'editor' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('Create New → Import: a zip is previewed, confirmed, reported, and its item shows its image', async () => {
    const { page, problems, context } = await signedInPage(browser, app.url, editor.cookie);
    await page.goto(`${app.url}/knowledge-base`);
    await page.getByText('Create New').click();
    await page.getByRole('menuitem', { name: 'Import Markdown…' }).click();
    await page.getByRole('heading', { name: 'Import Markdown' }).waitFor();

    const upload = zip({
      'network/vpn.md': '---\ntitle: Reset the VPN\ntags: [vpn]\n---\nStep one.\n\n![topology](images/topology.png)',
      'network/images/topology.png': PNG,
      'network/bad.md': '---\ntitle: [oops\n---\nbody',
      'readme.txt': 'not markdown',
    });
    await page
      .getByLabel('Files')
      .setInputFiles({ name: 'export.zip', mimeType: 'application/zip', buffer: Buffer.from(upload) });
    await page.getByRole('button', { name: 'Preview import' }).click();

    const rows = page.locator('tbody tr');
    await page.getByRole('heading', { name: 'Preview' }).waitFor();
    await expect.poll(() => rows.count()).toBe(3);
    await expect(page.getByRole('row', { name: /network\/vpn\.md/ }).innerText()).resolves.toContain('Will be created');
    await expect(page.getByRole('row', { name: /network\/bad\.md/ }).innerText()).resolves.toContain(
      'Front matter is not valid YAML',
    );

    await page.getByRole('button', { name: 'Import 1 item' }).click();
    await page.getByText('Finished: 3 of 3 files: 1 created, 1 skipped, 1 error.').waitFor();
    await page.getByRole('link', { name: 'Reset the VPN' }).click();
    await page.getByRole('heading', { name: 'Reset the VPN' }).waitFor();
    const image = page.getByRole('img', { name: 'topology' });
    await expect(image.getAttribute('src')).resolves.toMatch(/^\/objects\/[0-9a-f-]{36}$/);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`the report page follows a running job to its end (JavaScript ${javaScriptEnabled ? 'on: htmx' : 'off: the page reloads'})`, async () => {
      const id = await savePreview(
        app.db,
        [
          {
            name: `wait-${javaScriptEnabled}.md`,
            bytes: new TextEncoder().encode(`# Waited for ${javaScriptEnabled}`),
          },
        ],
        'knowledge',
        { id: editor.id, role: 'editor' },
      );
      // Queued but not started: the page shows it waiting until the job runs.
      await app.db.update(importJobs).set({ status: 'queued' }).where(eq(importJobs.id, id));
      const { page, problems, context } = await signedInPage(browser, app.url, editor.cookie, { javaScriptEnabled });
      await page.goto(`${app.url}/import/${id}`);
      await page.getByText('Waiting to start… 0 of 1 file').waitFor();
      const progress = page.getByRole('progressbar', { name: 'Import progress' });
      await expect(progress.isVisible()).resolves.toBe(true);
      const loads: string[] = [];
      page.on('load', () => loads.push(page.url()));

      await runImportJob(app.db, id, createLogger('silent'));
      await page.getByText('Finished: 1 of 1 file: 1 created, 0 skipped, 0 errors.').waitFor({ timeout: 15_000 });
      await page.getByRole('link', { name: `Waited for ${javaScriptEnabled}` }).waitFor();
      // htmx swapped the progress in place; without JavaScript the page reloaded itself.
      expect(loads.length > 0).toBe(!javaScriptEnabled);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
