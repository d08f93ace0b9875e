import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { hasBrowser, htmxSettled, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;

describe.skipIf(!hasBrowser)('team directory in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    const user = await createSignedInUser(app.db);
    context = await signedInContext(browser, app.url, user.cookie);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('adds, edits and deletes a member through keyboard-operable dialogs', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(app.url + '/team');
    await expect(page.getByText('Start by inviting your first team member').isVisible()).resolves.toBe(true);

    // Add, by keyboard: focus the button, Enter opens the dialog, fill, Enter submits.
    await page.getByRole('button', { name: 'Add Team Member' }).focus();
    await page.keyboard.press('Enter');
    const add = page.getByRole('dialog', { name: 'Add Team Member' });
    await add.waitFor();
    await add.getByLabel('Name').fill('Ada Lovelace');
    await add.getByLabel('Email').fill('ada@example.com');
    await add.getByLabel('Role').fill('Senior Systems Administrator');
    await add.getByLabel('Department').fill('Analytical Engines');
    await add.getByLabel('Department').press('Enter');
    await page.locator('#toasts').getByText('Team Member Added').waitFor();
    await add.waitFor({ state: 'detached' });
    const row = page.locator('.team-row', { hasText: 'Ada Lovelace' });
    await expect(row.innerText()).resolves.toContain('Analytical Engines');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);

    // Escape closes a dialog without saving.
    await page.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
    await page.getByRole('dialog', { name: 'Edit Team Member' }).waitFor();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);

    // Edit with status.
    await page.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Team Member' });
    await edit.getByLabel('Role').fill('DevOps Engineer');
    await edit.getByLabel('Status').selectOption('inactive');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.locator('#toasts').getByText('Team Member Updated').waitFor();
    await expect(row.locator('.badge').innerText()).resolves.toBe('DevOps Engineer');
    await expect(row.getByRole('img', { name: 'Inactive' }).isVisible()).resolves.toBe(true);

    // A duplicate e-mail keeps the dialog open with the message.
    await page.getByRole('button', { name: 'Add Team Member' }).click();
    const again = page.getByRole('dialog', { name: 'Add Team Member' });
    await again.getByLabel('Name').fill('Copy');
    await again.getByLabel('Email').fill('ADA@example.com');
    await again.getByLabel('Role').fill('VIP');
    await again.getByRole('button', { name: 'Add Member' }).click();
    await again.getByText('A team member with this email already exists.').waitFor();
    await page.keyboard.press('Escape');

    // Delete with the spec's confirmation.
    await page.getByRole('button', { name: 'Delete Ada Lovelace' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Team Member' });
    await expect(
      confirm.getByText('Are you sure you want to delete Ada Lovelace? This action cannot be undone.').isVisible(),
    ).resolves.toBe(true);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.locator('#toasts').getByText('Team Member Deleted').waitFor();
    await page.getByText('No team members found').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('searches the list as you type and keeps the query in the URL', async () => {
    const page = await context.newPage();
    await page.goto(app.url + '/team');
    for (const [name, role] of [
      ['Grace Hopper', 'Security Analyst'],
      ['Linus T', 'DevOps Engineer'],
    ]) {
      await page.getByRole('button', { name: 'Add Team Member' }).click();
      const add = page.getByRole('dialog', { name: 'Add Team Member' });
      await add.getByLabel('Name').fill(name);
      await add.getByLabel('Email').fill(`${name.split(' ')[0].toLowerCase()}@example.com`);
      await add.getByLabel('Role').fill(role);
      await add.getByRole('button', { name: 'Add Member' }).click();
      await add.waitFor({ state: 'detached' });
    }
    // Adding re-renders the page (search box included); type only once htmx has settled the new content.
    await page.locator('.team-row', { hasText: 'Linus T' }).waitFor();
    await htmxSettled(page);
    await page.getByRole('searchbox', { name: 'Search team members' }).fill('analyst');
    await page.waitForURL(`${app.url}/team?q=analyst`);
    await expect(page.locator('.team-row').count()).resolves.toBe(1);
    await expect(page.locator('.team-row').innerText()).resolves.toContain('Grace Hopper');
    await page.close();
  });

  it('a failed change shows an "Error" toast: the server\'s reason, the action\'s own text, or an unreachable server', async () => {
    const page = await context.newPage();
    const api = { headers: { Origin: app.url } };
    const created = await context.request.post(`${app.url}/api/team-members`, {
      ...api,
      data: { name: 'Gone Soon', email: 'gone@example.com', role: 'VIP' },
    });
    const { id } = (await created.json()) as { id: string };
    await page.goto(app.url + '/team');
    const toast = page.locator('#toasts .toast');

    // Removed meanwhile (another tab, another person): the delete answers 404 and says so.
    await page.getByRole('button', { name: 'Delete Gone Soon' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Team Member' });
    await confirm.waitFor();
    expect((await context.request.delete(`${app.url}/api/team-members/${id}`, api)).status()).toBe(200);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast.waitFor();
    await expect(toast.getAttribute('role')).resolves.toBe('alert');
    await expect(toast.locator('.toast__title').innerText()).resolves.toBe('Error');
    await expect(toast.locator('.toast__text').innerText()).resolves.toBe('Team member not found.');
    // Shown above the open modal dialog, not dimmed behind it.
    await expect(page.locator('#toasts').evaluate((el) => el.matches(':popover-open'))).resolves.toBe(true);
    await expect(confirm.getByRole('button', { name: 'Delete' }).isEnabled()).resolves.toBe(true);
    await page.keyboard.press('Escape');

    // A server failure names the action (spec §8) rather than the generic 500 text.
    await page.route('**/team/invite', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'text/html',
        body: '<main class="error-page"><h1>Something went wrong</h1><p class="muted">Something went wrong on our side. Please try again.</p></main>',
      }),
    );
    await page.getByRole('button', { name: 'Invite Member' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite Member' });
    await invite.getByLabel('Email').fill('new@example.com');
    await invite.getByLabel('First name').fill('New');
    await invite.getByLabel('Last name').fill('Person');
    await invite.getByLabel('Role').fill('VIP');
    await invite.getByRole('button', { name: 'Send Invitation' }).click();
    await page.locator('#toasts').getByText('Failed to send invitation. Please try again.').waitFor();
    await expect(toast.locator('.toast__title').innerText()).resolves.toBe('Error');

    // No answer at all.
    await page.unroute('**/team/invite');
    await page.route('**/team/invite', (route) => route.abort('connectionrefused'));
    await invite.getByRole('button', { name: 'Send Invitation' }).click();
    await page
      .locator('#toasts')
      .getByText('The server could not be reached. Check your connection and try again.')
      .waitFor();
    await expect(invite.getByLabel('Email').inputValue()).resolves.toBe('new@example.com');
    await page.close();
  });
});
