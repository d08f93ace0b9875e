import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, userPreferences } from '../../src/db/schema';
import { hasBrowser, sharedBrowser, signedInPage } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let auditor: TestUser;
let admin: TestUser;

/** /admin/audit as an auditor uses it: filter by actor, action and dates, page back with Older, download the CSV. */
describe.skipIf(!hasBrowser)('/admin/audit in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    auditor = await createSignedInUser(app.db, { role: 'auditor', firstName: 'Aud', lastName: 'Itor' });
    admin = await createSignedInUser(app.db, { role: 'admin', firstName: 'Ann', lastName: 'Admin' });
    await app.db.insert(userPreferences).values({ userId: auditor.id, timezone: 'UTC' });
    // 60 server updates by Ann on 2 March 2031 (one a minute), a sign-in the day before, a formula-looking entity.
    await app.db.insert(auditLog).values([
      ...Array.from({ length: 60 }, (_, i) => ({
        actorId: admin.id,
        action: 'server.update',
        entityType: 'server',
        entityId: `srv-${String(i).padStart(2, '0')}`,
        createdAt: new Date(Date.UTC(2031, 2, 2, 10, i)),
      })),
      { actorId: admin.id, action: 'user.sign_in', entityType: 'user', createdAt: new Date(Date.UTC(2031, 2, 1, 9)) },
      {
        actorId: auditor.id,
        action: 'knowledge.share',
        entityType: 'knowledge_item',
        entityId: '=cmd()',
        createdAt: new Date(Date.UTC(2031, 2, 2, 12)),
      },
    ]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`filters, pages with Older and downloads the filtered CSV (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const { page, problems, context } = await signedInPage(browser, app.url, auditor.cookie, { javaScriptEnabled });
      await page.goto(`${app.url}/admin/audit`);
      await page.getByRole('heading', { name: 'Events' }).waitFor();

      await page.getByLabel('Actor').selectOption({ label: `Ann Admin (${admin.email})` });
      await page.getByLabel('Action').fill('server.update');
      await page.getByLabel('From (UTC)').fill('2031-03-02');
      await page.getByLabel('To (UTC)').fill('2031-03-02');
      await Promise.all([
        page.waitForURL(/action=server.update/),
        page.getByRole('button', { name: 'Filter' }).click(),
      ]);

      const url = new URL(page.url());
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        actor: admin.id,
        action: 'server.update',
        from: '2031-03-02',
        to: '2031-03-02',
      });
      const rows = page.locator('table.audit-table tbody tr');
      await expect(rows.count()).resolves.toBe(50);
      await expect(rows.first().innerText()).resolves.toContain('server srv-59');
      await expect(page.locator('table.audit-table').innerText()).resolves.not.toContain('user.sign_in');
      // The form shows the filters it applied.
      await expect(page.getByLabel('Action').inputValue()).resolves.toBe('server.update');

      await Promise.all([page.waitForURL(/cursor=/), page.getByRole('link', { name: 'Older' }).click()]);
      await expect(rows.count()).resolves.toBe(10);
      await expect(rows.first().innerText()).resolves.toContain('server srv-09');
      await expect(page.getByRole('link', { name: 'Older' }).count()).resolves.toBe(0);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('audit-trail.csv');
      const csv = await readFile((await download.path())!, 'utf8');
      const lines = csv.trim().split('\r\n');
      expect(lines[0]).toBe('time,actor_id,actor_email,action,entity_type,entity_id,details');
      expect(lines).toHaveLength(61);
      expect(lines[1]).toContain('server.update,server,srv-59');

      await page.goto(`${app.url}/admin/audit?action=knowledge.share`);
      const [shared] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download CSV' }).click(),
      ]);
      const sharedCsv = await readFile((await shared.path())!, 'utf8');
      expect(sharedCsv).toContain(",knowledge_item,'=cmd(),");

      await page.goto(`${app.url}/admin/audit?action=nothing.like.this`);
      await page.getByText('No event matches these filters.').waitFor();
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
