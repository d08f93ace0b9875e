import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDocuments, servers, userPreferences } from '../../src/db/schema';
import { createItem, deleteItem, updateItem } from '../../src/knowledge/service';
import type { Item } from '../../src/knowledge/schemas';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
let runbook: Item;
let doc: Item;

const RUNBOOK = [
  'Restart the VPN concentrator without dropping the night shift.',
  '',
  '## Step 1: Drain',
  '',
  'Drain the pool.',
  '',
  '## Step 2: Restart',
  '',
  '```sh',
  'sudo systemctl restart strongswan',
  '```',
  '',
  '### Check',
  '',
  '| host | port |',
  '|---|---|',
  '| vpn-01 | 500 |',
  '',
  '## Step 3: Verify',
  '',
  '<script>alert(1)</script><img src=x onerror=alert(1)>',
].join('\n');

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Lovelace' });
  await t.db.insert(userPreferences).values({ userId: user.id, timezone: 'Asia/Tokyo' });
  runbook = await createItem(
    t.db,
    'knowledge',
    {
      title: 'Restart VPN: the night runbook',
      content: RUNBOOK,
      category: 'Network',
      tags: ['vpn', 'night'],
      templateType: 'work_instruction',
    },
    user.id,
  );
  doc = await createItem(t.db, 'documents', { title: 'Backup policy', content: 'Keep **three** copies.' }, user.id);
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.request(path, { headers: { Cookie: user.cookie, ...headers } });
const html = async (path: string, headers?: Record<string, string>) => (await get(path, headers)).text();
const kbPage = () => `/knowledge-base/${runbook.id}/restart-vpn-the-night-runbook`;

describe('an item page at its own address', () => {
  it('answers at /knowledge-base/{id}/{slug} with the title, facts, sanitised content and its canonical link', async () => {
    const res = await get(kbPage());
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(`<${kbPage()}>; rel="canonical"`);
    const page = await res.text();
    expect(page).toContain('<title>Restart VPN: the night runbook · Ops Hub</title>');
    expect(page).toContain('<h1 class="doc__title">Restart VPN: the night runbook</h1>');
    // The header names the section without a second <h1>.
    expect(page).toContain('<p class="page-header__title">Knowledge Base</p>');
    expect(page.match(/<h1/g)).toHaveLength(1);
    expect(page).toContain('Work Instruction');
    expect(page).toContain('<span class="badge badge--blue">Network</span>');
    expect(page).toContain('<span class="muted">v1</span> <span class="muted">Updated <time');
    expect(page).toContain('Ada Lovelace');
    expect(page).toContain('Drain the pool.');
    expect(page).not.toMatch(/<script>alert/);
    expect(page).not.toContain('onerror');
    expect(page).toMatch(/<span class="badge [^"]*badge--outline">vpn<\/span>/);
  });

  it("shows the updated time in the reader's timezone", async () => {
    const page = await html(kbPage());
    const shown = /<time dateTime="[^"]+">([^<]+)<\/time>/.exec(page)![1];
    // The clock as the app writes it (en-AU, 12-hour: "12:06 am" after midnight, where en-GB would say "0:06 am").
    const tokyo = new Intl.DateTimeFormat('en-AU', {
      timeZone: 'Asia/Tokyo',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h12',
    }).format(new Date(runbook.updatedAt));
    expect(shown.replace(/\s/g, ' ')).toContain(tokyo.replace(/\s/g, ' '));
  });

  it('answers at /knowledge-base/{id} without a slug too (a link that only knows the id)', async () => {
    const res = await get(`/knowledge-base/${runbook.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(`<${kbPage()}>; rel="canonical"`);
  });

  it('redirects a wrong or old slug to the current one for good (301)', async () => {
    const wrong = await get(`/knowledge-base/${runbook.id}/not-the-title`);
    expect(wrong.status).toBe(301);
    expect(wrong.headers.get('location')).toBe(kbPage());
    const renamed = await updateItem(
      t.db,
      'knowledge',
      runbook.id,
      { title: 'VPN restart runbook', content: RUNBOOK },
      user.id,
    );
    const old = await get(kbPage());
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(`/knowledge-base/${runbook.id}/vpn-restart-runbook`);
    expect((await get(`/knowledge-base/${runbook.id}/vpn-restart-runbook`)).status).toBe(200);
    runbook = await updateItem(t.db, 'knowledge', runbook.id, { title: runbook.title, content: RUNBOOK }, user.id);
    expect(renamed.version).toBe(2);
  });

  it('gives documents the same page at /documents/{id}/{slug}, without knowledge kinds', async () => {
    const res = await get(`/documents/${doc.id}/backup-policy`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<h1 class="doc__title">Backup policy</h1>');
    expect(page).toContain('<p class="page-header__title">Documents</p>');
    expect(page).toContain('<strong>three</strong>');
    expect(page).not.toContain('kb-type');
    expect((await get(`/documents/${doc.id}/old`)).headers.get('location')).toBe(`/documents/${doc.id}/backup-policy`);
  });

  it('answers the 404 page for an unknown, deleted or other-space item, and for a malformed id', async () => {
    const gone = await createItem(t.db, 'knowledge', { title: 'Gone', content: 'x' }, user.id);
    await deleteItem(t.db, 'knowledge', gone.id, user.id);
    for (const path of [
      '/knowledge-base/00000000-0000-4000-8000-000000000000',
      `/knowledge-base/${gone.id}`,
      `/knowledge-base/${gone.id}/gone`,
      `/knowledge-base/${doc.id}`,
      `/documents/${runbook.id}`,
      '/knowledge-base/not-a-uuid/slug',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
    expect(await html(`/knowledge-base/${gone.id}`)).toContain(
      'That knowledge base item does not exist or was deleted.',
    );
  });

  it('asks a signed-out visitor to sign in and come back to the item', async () => {
    const res = await t.app.request(kbPage());
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(kbPage())}`);
  });

  it('leaves the sub-pages of an item and the other list pages where they were', async () => {
    expect(await html(`/knowledge-base/${runbook.id}/edit`)).toContain('data-name="DocumentEditor"');
    expect(await html(`/knowledge-base/${runbook.id}/delete`)).toContain('Are you sure you want to delete');
    expect(await html('/knowledge-base/new?type=how-to-guide')).toContain('data-name="DocumentEditor"');
    expect((await get('/knowledge-base/deleted')).status).not.toBe(404);
  });
});

describe('the spec deep link ?doc={id}', () => {
  it('opens the item page on both spaces: the address names the item, the parameter is gone', async () => {
    const kb = await get(`/knowledge-base?doc=${runbook.id}`);
    expect(kb.status).toBe(302);
    expect(kb.headers.get('location')).toBe(kbPage());
    const d = await get(`/documents?doc=${doc.id}`);
    expect(d.status).toBe(302);
    expect(d.headers.get('location')).toBe(`/documents/${doc.id}/backup-policy`);
  });

  it('shows the list with a notice for an unknown item, and cleans the address keeping the filters', async () => {
    for (const [path, text] of [
      ['/knowledge-base', 'That knowledge base item does not exist or was deleted.'],
      ['/documents', 'That document does not exist or was deleted.'],
    ]) {
      for (const missing of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const res = await get(`${path}?doc=${missing}&q=runbook`);
        expect(res.status).toBe(200);
        const page = await res.text();
        expect(page).toContain(text);
        expect(page).toContain(`data-replace-url="${path}?q=runbook"`);
      }
    }
  });
});

describe('a read-only page', () => {
  it('ships no React up front: one island, loaded on the Version History click, and the small reading script', async () => {
    const page = await html(kbPage());
    const islands = [...page.matchAll(/<app-island([^>]*)>/g)].map((m) => m[1]);
    expect(islands.every((a) => a.includes('data-load="interaction"'))).toBe(true);
    expect(islands.some((a) => a.includes('data-name="ItemHistory"'))).toBe(true);
    expect(page).not.toContain('rel="modulepreload"');
    expect(page).toMatch(/<script type="module" src="\/static\/build\/reading-[A-Z0-9]+\.js">/);
    // Version History needs JavaScript: hidden until the script shows it.
    expect(page).toMatch(/data-island-trigger="ItemHistory" data-js-only="" hidden="">Version History</);
  });

  it('has Edit and Delete as plain links that work without JavaScript', async () => {
    const page = await html(kbPage());
    expect(page).toContain(`href="/knowledge-base/${runbook.id}/edit">Edit</a>`);
    expect(page).toContain(`href="/knowledge-base/${runbook.id}/delete?back=%2Fknowledge-base"`);
    expect(page).toContain('<dialog id="confirm-delete"');
  });
});

describe('reading aids', () => {
  it('lists the contents when there are three or more headings, with anchors on each heading', async () => {
    const page = await html(kbPage());
    for (const id of ['step-1-drain', 'step-2-restart', 'check', 'step-3-verify']) {
      expect(page).toContain(`id="${id}"`);
      expect(page).toContain(`href="#${id}"`);
    }
    expect(page).toContain('<details class="toc toc--inline"><summary>Contents</summary>');
    expect(page).toContain('<nav class="toc toc--side" aria-label="Contents">');
  });

  it('leaves the contents out of a short item', async () => {
    const page = await html(`/documents/${doc.id}`);
    expect(page).not.toContain('class="toc');
  });

  it('wraps tables to scroll inside themselves and gives code blocks a copy button', async () => {
    const page = await html(kbPage());
    expect(page).toContain('<div class="table-scroll"');
    expect(page).toContain('data-copy-code');
  });
});

describe('around the item', () => {
  it('shows its linked servers with their status, linking to the server', async () => {
    const [server] = await t.db
      .insert(servers)
      .values({ name: 'vpn-01', environment: 'production', status: 'offline' })
      .returning();
    await t.db.insert(serverDocuments).values({ serverId: server.id, documentId: runbook.id, documentType: 'runbook' });
    const page = await html(kbPage());
    expect(page).toContain('<h2 class="doc__aside-title" id="servers-panel-title">Servers</h2>');
    expect(page).toContain(`href="/infrastructure/${server.id}">vpn-01</a>`);
    expect(page).toMatch(/vpn-01<\/a> <span class="badge badge--[a-z]+">offline<\/span>/);
  });

  it('goes back to the list with the filters the reader came from, and only to our own list', async () => {
    const from = `${TEST_ORIGIN}/knowledge-base?q=vpn&view=list`;
    const page = await html(kbPage(), { Referer: from });
    expect(page).toContain('<a href="/knowledge-base?q=vpn&amp;view=list">Knowledge Base</a>');
    expect(page).toContain('<a href="/knowledge-base?category=Network">Network</a>');
    for (const referer of [`${TEST_ORIGIN}/search?q=vpn`, `${TEST_ORIGIN}/documents?q=vpn`, 'not a url']) {
      expect(await html(kbPage(), { Referer: referer })).toContain('<a href="/knowledge-base">Knowledge Base</a>');
    }
    // Only the query of a Referer is ever used, after our own path: never a link elsewhere.
    const forged = await html(kbPage(), { Referer: 'https://evil.example/knowledge-base?q=x' });
    expect(forged).toContain('<a href="/knowledge-base?q=x">Knowledge Base</a>');
    expect(forged).not.toContain('evil.example');
  });

  it('deletes from the page: the dialog posts plainly and the answer is the list it came from', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Doomed page', content: 'x' }, user.id);
    const confirm = await html(
      `/knowledge-base/${item.id}/delete?back=${encodeURIComponent('/knowledge-base?q=doomed')}`,
      {
        'HX-Request': 'true',
        'HX-Target': 'confirm-delete',
        'HX-Current-URL': `${TEST_ORIGIN}/knowledge-base/${item.id}/doomed-page`,
      },
    );
    expect(confirm).toMatch(
      new RegExp(`<form (method="post" )?action="/knowledge-base/${item.id}/delete"( method="post")?>`),
    );
    expect(confirm).not.toContain('hx-post');
    expect(confirm).toContain('name="back" value="/knowledge-base?q=doomed"');
    const res = await t.app.request(`/knowledge-base/${item.id}/delete`, {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `back=${encodeURIComponent('/knowledge-base?q=doomed')}`,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/knowledge-base?q=doomed&deleted=1');
    expect((await get(`/knowledge-base/${item.id}`)).status).toBe(404);
  });
});

describe('a kept page (src/ui/page-cache.ts) never outlives what it shows', () => {
  it('shows a new version, a server status, the reader and their timezone as soon as they change', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Kept page', content: 'First text.' }, user.id);
    const path = `/knowledge-base/${item.id}/kept-page`;
    const first = await html(path);
    expect(await html(path)).toBe(first);
    await updateItem(t.db, 'knowledge', item.id, { title: 'Kept page', content: 'Second text.' }, user.id);
    const second = await html(path);
    expect(second).toContain('Second text.');
    expect(second).not.toContain('First text.');

    const [server] = await t.db.insert(servers).values({ name: 'kept-01', environment: 'production' }).returning();
    await t.db.insert(serverDocuments).values({ serverId: server.id, documentId: item.id, documentType: 'runbook' });
    expect(await html(path)).toMatch(/kept-01<\/a> <span class="badge badge--[a-z]+">unknown</);
    await t.db.update(servers).set({ status: 'offline' }).where(eq(servers.id, server.id));
    expect(await html(path)).toMatch(/kept-01<\/a> <span class="badge badge--[a-z]+">offline</);

    const other = await createSignedInUser(t.db, { firstName: 'Grace', lastName: 'Hopper' });
    const theirs = await (await t.app.request(path, { headers: { Cookie: other.cookie } })).text();
    expect(theirs).toContain('Grace Hopper');
    const before = /<time dateTime="[^"]+">([^<]+)<\/time>/.exec(theirs)![1];
    await t.db.insert(userPreferences).values({ userId: other.id, timezone: 'America/New_York' });
    const later = await (await t.app.request(path, { headers: { Cookie: other.cookie } })).text();
    expect(/<time dateTime="[^"]+">([^<]+)<\/time>/.exec(later)![1]).not.toBe(before);
  });

  it('sends the same bytes gzipped and plain, and the gzip unpacks to the page', async () => {
    const zipped = await get(kbPage(), { 'Accept-Encoding': 'gzip' });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const plain = await html(kbPage());
    expect(gunzipSync(new Uint8Array(await zipped.arrayBuffer())).toString('utf8')).toBe(plain);
  });
});
