import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { notifications } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { mailNotificationBatches, QUIET_WINDOW_MS } from '../../src/notifications/mail-batch';
import { hasBrowser, htmxSettled, sharedBrowser, signedInContext, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { startMailbox, type Mailbox } from '../helpers/mailbox';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** Comments on an item's read page (issue 22): comment with a mention, reply, quote a passage, without JS too. */
let app: RunningApp;
let browser: Browser;
let vera: TestUser;
let bob: TestUser;
let mailbox: Mailbox;

const TEXT = 'Stop the print spooler before you clear the queue folder.';

describe.skipIf(!hasBrowser)('comments in Chromium', () => {
  beforeAll(async () => {
    mailbox = await startMailbox();
    app = await startApp({ SMTP_URL: mailbox.url, MAIL_FROM: 'Ops Hub <ops@example.com>' });
    browser = await sharedBrowser();
    vera = await createSignedInUser(app.db, { role: 'viewer', firstName: 'Vera', lastName: 'Viewer' });
    bob = await createSignedInUser(app.db, { firstName: 'Bob', lastName: 'Builder', email: 'bob@example.com' });
  });
  afterAll(async () => {
    await app?.stop();
    await mailbox?.close();
  });

  it('a viewer quotes a passage, mentions a colleague from the suggestions, and replies; the colleague is told', async () => {
    const item = await createItem(app.db, 'knowledge', { title: 'Clear the print queue', content: TEXT }, bob.id);
    const { context, page, problems } = await signedInPage(browser, app.url, vera.cookie, {
      viewport: { width: 1366, height: 900 },
    });
    await page.goto(`${app.url}/knowledge-base/${item.id}`);
    const comments = page.locator('#comments');
    await comments.getByText('No comments yet.').waitFor();

    // Select a passage of the text, then "Comment on selection".
    await page.evaluate(() => {
      const p = document.querySelector('.doc__body p')!;
      const range = document.createRange();
      range.selectNodeContents(p);
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(range);
    });
    await comments.getByRole('button', { name: 'Comment on selection' }).click();
    await expect(comments.locator('[data-quote-preview]').textContent()).resolves.toBe(TEXT);

    const box = comments.getByRole('textbox', { name: 'Comment', exact: true });
    await box.pressSequentially('Should we tell @bob');
    const option = comments.getByRole('option', { name: /Bob Builder <bob@example.com>/ });
    await option.waitFor();
    await box.press('Enter');
    await expect(box.inputValue()).resolves.toBe('Should we tell @bob@example.com ');
    await box.pressSequentially('first?');
    await comments.getByRole('button', { name: 'Comment', exact: true }).click();
    const first = comments.locator('article.comment').first();
    await first.locator('.comment__body').getByText('Should we tell @Bob Builder first?').waitFor();
    await expect(comments.locator('blockquote.comment__quote').first().textContent()).resolves.toBe(TEXT);
    await htmxSettled(page);

    // Reply in the thread.
    await comments.locator('summary', { hasText: 'Reply' }).click();
    await comments.getByRole('textbox', { name: 'Reply' }).fill('Answering my own question: yes.');
    await comments.getByRole('button', { name: 'Reply', exact: true }).click();
    await comments.locator('.comment__replies .comment__body').getByText('Answering my own question: yes.').waitFor();
    await comments.getByRole('heading', { name: 'Comments (2)' }).waitFor();
    const id = (await first.getAttribute('id'))!.replace('comment-', '');
    expect(problems).toEqual([]);
    await context.close();

    // Bob's notification links to the comment: his bell shows it, and it opens the comment on his page.
    const [note] = await app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, bob.id), eq(notifications.kind, 'mention')));
    expect(note).toMatchObject({ commentId: id, link: `/knowledge-base/${item.id}#comment-${id}` });
    expect(note.text).toBe('Vera Viewer mentioned you on Clear the print queue');
    const bobs = await signedInPage(browser, app.url, bob.cookie, { viewport: { width: 1366, height: 900 } });
    await bobs.page.goto(`${app.url}/knowledge-base`);
    await bobs.page.locator('summary.notify__bell').click();
    await bobs.page
      .locator('.notify-panel')
      .getByRole('link', { name: 'Vera Viewer mentioned you on Clear the print queue' })
      .click();
    await bobs.page.waitForURL(`${app.url}${note.link}`);
    await bobs.page.locator(`#comment-${id} .mention`).getByText('@Bob Builder').waitFor();

    // Once the burst is quiet, the batch e-mail reaches Bob's mailbox through the outbox and SMTP.
    await mailNotificationBatches(app.db, app.url, new Date(Date.now() + QUIET_WINDOW_MS + 1000));
    await expect
      .poll(() => mailbox.messages.find((m) => m.to.includes('bob@example.com'))?.raw ?? '', { timeout: 10_000 })
      .toContain('Vera Viewer mentioned you on Clear the print queue');

    // The category view's preview shows the open thread beside the text.
    await bobs.page.goto(`${app.url}/knowledge-base?view=category`);
    await bobs.page.locator('app-island[data-name="CategoryView"][data-hydrated]').waitFor();
    const group = bobs.page.locator('details.tree__group', {
      has: bobs.page.locator('summary', { hasText: 'Uncategorized' }),
    });
    if ((await group.getAttribute('open')) === null) await group.locator('summary').click();
    await group.getByRole('link', { name: 'Clear the print queue', exact: true }).click();
    const preview = bobs.page.getByRole('region', { name: 'Comments' });
    await preview.locator('.comment__body').getByText('Should we tell @Bob Builder first?').waitFor();
    await preview.getByText('1 reply').waitFor();
    expect(bobs.problems).toEqual([]);
    await bobs.context.close();
  });

  it('without JavaScript a plain form posts a comment and the page comes back at it', async () => {
    const item = await createItem(app.db, 'knowledge', { title: 'No script item', content: TEXT }, bob.id);
    const context = await signedInContext(browser, app.url, vera.cookie, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${app.url}/knowledge-base/${item.id}`);
    await page.getByRole('textbox', { name: 'Comment', exact: true }).fill('Posted without scripts');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.waitForURL(/#comment-[0-9a-f-]{36}$/);
    await page.locator('#comments .comment__body').getByText('Posted without scripts').waitFor();
    await context.close();
  });

  it('the editor shows the threads under the form, and a comment posted there stays', async () => {
    const item = await createItem(app.db, 'knowledge', { title: 'Edited item', content: TEXT }, bob.id);
    const { context, page, problems } = await signedInPage(browser, app.url, bob.cookie);
    await page.goto(`${app.url}/knowledge-base/${item.id}/edit`);
    const comments = page.locator('#comments');
    await comments.getByText('No comments yet.').waitFor();
    await htmxSettled(page);
    await expect(comments.getByRole('button', { name: 'Comment on selection' }).isHidden()).resolves.toBe(true);
    await comments.getByRole('textbox', { name: 'Comment', exact: true }).fill('Note from the editor');
    await comments.getByRole('button', { name: 'Comment', exact: true }).click();
    await comments.locator('.comment__body').getByText('Note from the editor').waitFor();
    expect(page.url()).toBe(`${app.url}/knowledge-base/${item.id}/edit`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
