import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { importJobs } from '../../src/db/schema';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { PNG, uploadRequest, zip } from './zips';

/** The /import pages without JavaScript: upload → preview → confirm → report; refusals shown in the form. */

let t: TestContext;
let editor: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
});
afterAll(() => t.close());

const get = (path: string, cookie = editor.cookie) => t.app.request(path, { headers: { Cookie: cookie } });
const postForm = (path: string, cookie = editor.cookie) =>
  t.app.request(path, uploadRequest([], cookie, { nothing: '' }));
const documentCount = async () =>
  Number((await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from documents`))[0].n);

describe('the import page', () => {
  it('is offered to editors (the knowledge Create New menu, a link on documents) and refused to viewers', async () => {
    const page = await get('/import?space=documents');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/enctype="multipart\/form-data"/i);
    expect(html).toMatch(/<option value="documents" selected="">/);
    expect((await get('/import', viewer.cookie)).status).toBe(403);
    expect(await (await get('/knowledge-base')).text()).toContain('href="/import?space=knowledge"');
    expect(await (await get('/documents')).text()).toContain('href="/import?space=documents"');
    expect(await (await get('/knowledge-base', viewer.cookie)).text()).not.toContain('/import?space=');
  });

  it('upload → preview (nothing imported yet) → confirm → report with links to the items', async () => {
    const before = await documentCount();
    const upload = zip({
      'net/vpn.md': '# Page VPN\n\n![map](map.png)',
      'net/map.png': PNG,
      'net/broken.md': '---\ntitle: [x\n---\nbody',
    });
    const res = await t.app.request(
      '/import',
      uploadRequest([{ name: 'net.zip', body: upload }], editor.cookie, { space: 'knowledge' }),
    );
    expect(res.status).toBe(303);
    const at = res.headers.get('location')!;
    expect(at).toMatch(/^\/import\/[0-9a-f-]{36}$/);

    const preview = await (await get(at)).text();
    expect(preview).toContain('Will be created');
    expect(preview).toContain('Front matter is not valid YAML');
    expect(preview).toContain('Import 1 item');
    expect(await documentCount()).toBe(before);
    expect((await get(at, (await createSignedInUser(t.db, { role: 'editor' })).cookie)).status).toBe(404);

    expect((await postForm(`${at}/confirm`)).status).toBe(303);
    let report = '';
    for (let i = 0; i < 100 && !report.includes('Finished'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      report = await (await get(at)).text();
    }
    expect(report).toContain('Finished: 2 of 2 files: 1 created, 0 skipped, 1 error.');
    expect(report).toMatch(/href="\/knowledge-base\/[0-9a-f-]{36}">Page VPN<\/a>/);
    expect(report).not.toContain('http-equiv="refresh"');
    expect(await documentCount()).toBe(before + 1);
    // A second confirm changes nothing.
    expect((await postForm(`${at}/confirm`)).status).toBe(303);
    expect(await documentCount()).toBe(before + 1);
  });

  it('shows progress that refreshes while the job waits or runs: htmx asks for the fragment, without JS the page reloads', async () => {
    const res = await t.app.request(
      '/import',
      uploadRequest([{ name: 'a.md', body: '# Waiting one' }], editor.cookie, { space: 'knowledge' }),
    );
    const id = res.headers.get('location')!.split('/').at(-1)!;
    await t.db.update(importJobs).set({ status: 'queued' }).where(eq(importJobs.id, id));
    const page = await (await get(`/import/${id}`)).text();
    expect(page).toContain('<noscript><meta http-equiv="refresh" content="3"/></noscript>');
    expect(page).toContain(`hx-get="/import/${id}/progress"`);
    expect(page).toContain('hx-trigger="every 2s"');
    const fragment = await (await get(`/import/${id}/progress`)).text();
    expect(fragment).toMatch(/^<section id="import-progress"/);
    expect(fragment).toContain('<progress');
    await t.db.delete(importJobs).where(eq(importJobs.id, id));
  });

  it('shows a refused upload in the form with its status, and Cancel drops a preview', async () => {
    const slip = await t.app.request(
      '/import',
      uploadRequest([{ name: 'x.zip', body: zip({ '../up.md': '# up' }) }], editor.cookie, { space: 'documents' }),
    );
    expect(slip.status).toBe(400);
    const html = await slip.text();
    expect(html).toContain('unsafe path &quot;../up.md&quot;');
    expect(html).toMatch(/<option value="documents" selected="">/);

    const res = await t.app.request(
      '/import',
      uploadRequest([{ name: 'a.md', body: '# Cancelled one' }], editor.cookie, { space: 'documents' }),
    );
    const at = res.headers.get('location')!;
    const cancel = await postForm(`${at}/cancel`);
    expect([cancel.status, cancel.headers.get('location')]).toEqual([303, '/import?space=documents']);
    expect((await get(at)).status).toBe(404);
  });

  it('a preview is confirmed or cancelled by the one who uploaded it only: an admin may read it, not decide it', async () => {
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    const res = await t.app.request(
      '/import',
      uploadRequest([{ name: 'mine.md', body: '# Only mine to confirm\n\ntext' }], editor.cookie, {
        space: 'knowledge',
      }),
    );
    const at = res.headers.get('location')!;
    const seen = await get(at, admin.cookie);
    expect(seen.status).toBe(200);
    const html = await seen.text();
    expect(html).toContain('Only mine to confirm');
    expect(html).not.toContain(`action="${at}/confirm"`);
    expect(html).toContain('Only the person who uploaded it can confirm or cancel this import.');
    expect(await (await get(at)).text()).toContain(`action="${at}/confirm"`);

    const before = await documentCount();
    for (const step of ['confirm', 'cancel']) expect((await postForm(`${at}/${step}`, admin.cookie)).status).toBe(403);
    const [row] = await t.db
      .select({ status: importJobs.status })
      .from(importJobs)
      .where(eq(importJobs.id, at.split('/').at(-1)!));
    expect(row.status).toBe('preview');
    expect(await documentCount()).toBe(before);
    expect((await postForm(`${at}/cancel`)).status).toBe(303);
  });
});
