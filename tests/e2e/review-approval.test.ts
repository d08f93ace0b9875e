import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createItem } from '../../src/knowledge/service';
import { setReviewPolicy } from '../../src/reviews/policy';
import { hasBrowser, signedInPage as openSignedInPage, sharedBrowser } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Review and approval in Chromium (issue 22): send for review → approve → published; request changes. */
let app: RunningApp;
let browser: Browser;
let author: TestUser;
let ada: TestUser;

const pageOf = (who: TestUser) =>
  openSignedInPage(browser, app.url, who.cookie, { viewport: { width: 1400, height: 900 } });

async function workInstruction(title: string) {
  return createItem(
    app.db,
    'knowledge',
    { title, content: 'Cordon, drain, patch.', templateType: 'work_instruction' },
    author.id,
  );
}

describe.skipIf(!hasBrowser)('review and approval in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    author = await createSignedInUser(app.db, { firstName: 'Ann', lastName: 'Author' });
    ada = await createSignedInUser(app.db, { firstName: 'Ada', lastName: 'Reviewer' });
    const admin = await createSignedInUser(app.db, { role: 'admin' });
    await setReviewPolicy(app.db, admin.id, 'approvals', { 'work-instruction': 1 });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('send for review → the reviewer sees it in Review Requests → approve → published', async () => {
    const item = await workInstruction('Patch the Kubernetes nodes');
    const mine = await pageOf(author);
    await mine.page.goto(`${app.url}/knowledge-base/${item.id}`);
    const panel = mine.page.getByRole('region', { name: 'Review' });
    await panel.getByText('Draft', { exact: true }).waitFor();
    await panel.getByLabel('Ada Reviewer').check();
    await panel.getByRole('button', { name: 'Send for review' }).click();
    await mine.page.getByRole('region', { name: 'Review' }).getByText('In review', { exact: true }).waitFor();

    const theirs = await pageOf(ada);
    await theirs.page.goto(`${app.url}/`);
    const link = theirs.page.getByRole('link', { name: /Review Requests/ });
    await link.locator('.review-count', { hasText: '1' }).waitFor();
    await link.click();
    await theirs.page.getByRole('link', { name: 'Patch the Kubernetes nodes' }).click();
    const review = theirs.page.getByRole('region', { name: 'Review' });
    await review.getByRole('button', { name: 'Approve' }).click();
    await theirs.page.getByRole('region', { name: 'Review' }).getByText('Published', { exact: true }).waitFor();
    await expect(theirs.page.locator('.doc__facts').innerText()).resolves.toContain('v2');

    await theirs.page.getByRole('button', { name: 'Version History' }).click();
    const dialog = theirs.page.getByRole('dialog', { name: 'Version History' });
    await dialog.getByRole('button', { name: /Version 1/ }).click();
    await dialog.getByText(/Approved by Ada Reviewer/).waitFor();
    await dialog
      .getByRole('button', { name: /Version 2/ })
      .getByText('Published')
      .waitFor();
    expect(mine.problems).toEqual([]);
    expect(theirs.problems).toEqual([]);
    await mine.context.close();
    await theirs.context.close();
  });

  it('request changes: the comment is required, the item goes back to draft and the author reads why', async () => {
    const item = await workInstruction('Rotate the backup keys');
    const mine = await pageOf(author);
    await mine.page.goto(`${app.url}/knowledge-base/${item.id}`);
    await mine.page.getByRole('region', { name: 'Review' }).getByLabel('Ada Reviewer').check();
    await mine.page.getByRole('button', { name: 'Send for review' }).click();
    await mine.page.getByText('In review', { exact: true }).waitFor();

    const theirs = await pageOf(ada);
    await theirs.page.goto(`${app.url}/knowledge-base/${item.id}`);
    const review = theirs.page.getByRole('region', { name: 'Review' });
    await review.getByRole('button', { name: 'Request changes' }).click();
    await theirs.page
      .locator('#toasts .toast--error')
      .getByText(/a comment is required/)
      .waitFor();
    await review.getByLabel('Your review of v1').fill('Say which keys and where they are kept.');
    await review.getByRole('button', { name: 'Request changes' }).click();
    await theirs.page.getByRole('region', { name: 'Review' }).getByText('Draft', { exact: true }).waitFor();

    await mine.page.reload();
    const panel = mine.page.getByRole('region', { name: 'Review' });
    await panel.getByText(/Ada Reviewer: Changes requested/).waitFor();
    await panel.getByText(/Say which keys and where they are kept\./).waitFor();
    expect(mine.problems).toEqual([]);
    await mine.context.close();
    await theirs.context.close();
  });

  it("the editor's Published switch on an item that needs approval says so, and nothing is published", async () => {
    const item = await workInstruction('Replace a failed disk');
    const { context, page, problems } = await pageOf(author);
    await page.goto(`${app.url}/knowledge-base/${item.id}/edit`);
    await page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
    await page.getByRole('switch', { name: 'Published' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const refused = page.locator('#toasts .toast--error');
    await refused.getByText('Not published', { exact: true }).waitFor();
    await refused
      .getByText('Work instructions need 1 approval before they are published. Send it for review.')
      .waitFor();
    await expect(page.getByText('This item was changed elsewhere.').count()).resolves.toBe(0);
    await expect(
      page.getByRole('region', { name: 'Review' }).getByText('Draft', { exact: true }).count(),
    ).resolves.toBe(1);
    expect(problems.filter((p) => !p.includes('409'))).toEqual([]);
    await context.close();
  });
});
