import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { serverDocuments, servers } from '../../src/db/schema';
import { getItem } from '../../src/knowledge/service';
import { hasBrowser, signedInPage as openSignedInPage, sharedBrowser, toastDuring } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let app: RunningApp;
let browser: Browser;
let user: TestUser;
let server: typeof servers.$inferSelect;

const signedInPage = () => openSignedInPage(browser, app.url, user.cookie, { viewport: { width: 1400, height: 1000 } });
const hydrated = (page: Page) => page.locator('app-island[data-name="DocumentEditor"][data-hydrated]').waitFor();
const value = (page: Page, label: string) => page.getByLabel(label, { exact: true }).inputValue();

describe.skipIf(!hasBrowser)('a build document created from a server, in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Ada', lastName: 'Lovelace' });
    [server] = await app.db
      .insert(servers)
      .values({
        name: 'e2e-build-01',
        hostname: 'e2e-build-01.corp.example.com',
        ipAddress: '127.0.0.61',
        network: 'Hosting Zone',
        environment: 'production',
        operatingSystem: 'Red Hat Enterprise Linux 9',
        serverType: 'virtual',
        primaryFunction: 'Intranet web server',
        teamOwner: 'Web',
        keyContacts: 'Grace Hopper',
      })
      .returning();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('opens the pre-filled form from the server page, saves it linked, and the server page lists it', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/infrastructure/${server.id}`);
    await page.getByRole('heading', { name: 'Runbooks' }).waitFor();
    await page.getByText('No documents linked yet.').waitFor();
    await page.getByRole('link', { name: 'Create build document' }).click();

    await page.waitForURL((u) => u.pathname === '/knowledge-base/new' && u.search.includes(`server=${server.id}`));
    await page.getByRole('heading', { name: 'Create Build Document' }).waitFor();
    await hydrated(page);
    expect(await value(page, 'Title')).toBe('Build document: e2e-build-01');
    expect(await value(page, 'Server Name')).toBe('e2e-build-01');
    expect(await value(page, 'Build Engineer')).toBe('Ada Lovelace');
    expect(await value(page, 'Environment')).toBe('Production');
    expect(await value(page, 'Server Type')).toBe('Virtual');
    expect(await value(page, 'OS Version')).toBe('Red Hat Enterprise Linux 9');
    expect(await value(page, 'Server Purpose')).toBe('Primary function: Intranet web server');
    expect(await value(page, 'Network Requirements')).toBe(
      'Network zone: Hosting Zone; IP address: 127.0.0.61; Hostname: e2e-build-01.corp.example.com',
    );
    expect(await value(page, 'Dependencies')).toBe('Team owner: Web; Key contacts: Grace Hopper');
    // One empty build step to start from.
    expect(await value(page, 'Step 1 title')).toBe('');
    await page.getByLabel('Step 1 title').fill('Provision the VM');

    await toastDuring(page, 'Success', () => page.getByRole('button', { name: 'Save', exact: true }).click());
    await page.waitForURL((u) => /^\/knowledge-base\/[0-9a-f-]{36}(\/[a-z0-9-]+)?$/.test(u.pathname));

    // Saved with the form and linked to the server, typed as a build document.
    const [link] = await app.db.select().from(serverDocuments).where(eq(serverDocuments.serverId, server.id));
    expect(link).toMatchObject({ documentType: 'build-document' });
    const saved = (await getItem(app.db, 'knowledge', link.documentId))!;
    expect(saved).toMatchObject({ title: 'Build document: e2e-build-01', templateType: 'build_document' });
    expect(saved.formModel).toMatchObject({ serverName: 'e2e-build-01', environment: 'Production' });
    expect(saved.content).toContain('| Server Name | e2e-build-01 |');

    await page.goto(`${app.url}/infrastructure/${server.id}`);
    const runbooks = page.getByRole('list', { name: 'Linked documents' });
    await runbooks.getByRole('link', { name: 'Build document: e2e-build-01' }).click();
    await page.waitForURL((u) => u.pathname.startsWith(`/knowledge-base/${saved.id}`));
    await page.getByRole('heading', { name: 'Build document: e2e-build-01' }).first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
