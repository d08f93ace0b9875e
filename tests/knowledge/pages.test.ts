import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDocuments, servers } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.request(path, { headers: { Cookie: user.cookie, ...headers } });
const html = async (path: string, headers?: Record<string, string>) => (await get(path, headers)).text();
const hx = { 'HX-Request': 'true', 'HX-Target': 'kb-results' };

describe('empty screens', () => {
  it('asks signed-out visitors to sign in and come back', async () => {
    const res = await t.app.request('/knowledge-base?view=list');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?next=%2Fknowledge-base%3Fview%3Dlist');
  });

  it('shows the knowledge base title, subtitle, Auto Create panel, Create New menu and empty state', async () => {
    const page = await html('/knowledge-base');
    expect(page).toContain('<h1 class="page-header__title">Knowledge Base</h1>');
    expect(page).toContain('Manage your knowledge base, work instructions, and templates');
    expect(page).toContain('Auto Create KB');
    expect(page).toContain('AI Powered');
    for (const type of ['knowledge-base', 'work-instruction', 'how-to-guide', 'build-document'])
      expect(page).toContain(`href="/knowledge-base/new?type=${type}"`);
    expect(page).toContain('No knowledge items yet');
    expect(page).toContain('Create your first knowledge item to get started');
    expect(await html('/knowledge-base?q=nothing')).toContain('No items found');
  });

  it('shows the knowledge empty state in the category view of an empty space', async () => {
    const page = await html('/knowledge-base?view=category');
    expect(page).not.toContain('data-name="CategoryView"');
    expect(page).toContain('No knowledge items yet');
    expect(page).toContain('Create your first knowledge item to get started');
  });

  it('shows the documents title, subtitle, New Document and empty states', async () => {
    const page = await html('/documents');
    expect(page).toContain('Documents</h1>');
    expect(page).toContain('Manage your documentation and templates');
    expect(page).toContain('href="/documents/new"');
    expect(page).toContain('No documents yet');
    expect(page).toContain('Get started by creating your first document');
    expect(page).toContain('Create Your First Document');
    const filtered = await html('/documents?q=zzz');
    expect(filtered).toContain('No documents found');
    expect(filtered).toContain('Try adjusting your search or filter criteria');
  });

  it('redirects ?create= to the matching creator', async () => {
    for (const type of ['knowledge-base', 'how-to-guide', 'build-document']) {
      const res = await get(`/knowledge-base?create=${type}`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`/knowledge-base/new?type=${type}`);
    }
  });
});

describe('with items', () => {
  let kb: { id: string };
  beforeAll(async () => {
    kb = await createItem(
      t.db,
      'knowledge',
      {
        title: 'Reset ADFS <b>token</b>',
        content: '# Heading\n\n<script>alert(1)</script><img src=x onerror=alert(1)>',
        excerpt: 'When ADFS breaks',
        category: 'ADFS',
        tags: ['a', 'b', 'c', 'd', 'e'],
        isTemplate: true,
        templateType: 'how_to_guide',
      },
      user.id,
    );
    await createItem(
      t.db,
      'knowledge',
      { title: 'Patch night', content: 'patching', category: 'Patching', templateType: 'work_instruction' },
      user.id,
    );
    await createItem(t.db, 'knowledge', { title: 'Loose note', content: 'nothing else' }, user.id);
    await createItem(
      t.db,
      'documents',
      { title: 'Runbook doc', content: 'doc body', category: 'Citrix', tags: ['x'] },
      user.id,
    );
  });

  it('renders grid cards: type, Template and category badges, v1, age, 3 tags and +N, delete', async () => {
    const page = await html('/knowledge-base');
    expect(page).toContain('How-To Guide');
    expect(page).toContain('Template</span>');
    expect(page).toContain('ADFS</span>');
    expect(page).toContain('Reset ADFS &lt;b&gt;token&lt;/b&gt;');
    expect(page).toContain('v1 · <time');
    expect(page).toContain('just now');
    expect(page).toContain('+2</span>');
    expect(page).toContain(`href="/knowledge-base/${kb.id}/reset-adfs-b-token-b"`);
    expect(page).toContain(`href="/knowledge-base/${kb.id}/delete"`);
    expect(page).toContain('<option value="ADFS">ADFS</option>');
  });

  it('filters by type, category and search, server-side', async () => {
    const wi = await html('/knowledge-base?type=work-instruction');
    expect(wi).toContain('Patch night');
    expect(wi).not.toContain('Loose note');
    const plain = await html('/knowledge-base?type=knowledge-base');
    expect(plain).toContain('Loose note');
    expect(plain).not.toContain('Patch night');
    expect(await html('/knowledge-base?category=Patching')).not.toContain('Loose note');
    const search = await html('/knowledge-base?q=patching');
    expect(search).toContain('Patch night');
    expect(search).not.toContain('Loose note');
  });

  it('answers htmx requests with the results only', async () => {
    const res = await get('/knowledge-base?view=list&q=patch', hx);
    const body = await res.text();
    expect(body).not.toContain('<html');
    expect(body).toContain('<table class="table">');
    expect(body).toContain('Patch night');
    expect(body.match(/skeleton/g)?.length).toBeGreaterThanOrEqual(8);
    expect(res.headers.get('vary')).toContain('HX-Request');
  });

  it('renders the category view with Uncategorized last and counts', async () => {
    const page = await html('/knowledge-base?view=category');
    expect(page).toContain('data-name="CategoryView"');
    expect(page).toContain('Categories</h2>');
    const adfs = page.indexOf('>ADFS<');
    const patching = page.indexOf('>Patching<');
    const uncategorized = page.indexOf('>Uncategorized<');
    expect(adfs).toBeGreaterThan(0);
    expect(adfs).toBeLessThan(patching);
    expect(patching).toBeLessThan(uncategorized);
    expect(page).toContain('Select a document to preview');
  });

  it('sends the category tree only what it shows: ids and titles, not excerpts or tags', async () => {
    const page = await html('/knowledge-base?view=category');
    const props = /data-name="CategoryView"[^>]*data-props="([^"]*)"/
      .exec(page)![1]
      .replace(
        /&(quot|lt|gt|#x27|amp);/g,
        (_, e: string) => ({ quot: '"', lt: '<', gt: '>', '#x27': "'", amp: '&' })[e]!,
      );
    const { groups } = JSON.parse(props) as { groups: { name: string; items: Record<string, unknown>[] }[] };
    const adfs = groups.find((g) => g.name === 'ADFS')!;
    expect(adfs.items).toEqual([{ id: kb.id, title: 'Reset ADFS <b>token</b>' }]);
  });

  it('shows the spec empty state in the category view when nothing matches, not an empty tree', async () => {
    const page = await html('/knowledge-base?view=category&q=nothingmatchesthis');
    expect(page).not.toContain('data-name="CategoryView"');
    expect(page).toContain('No items found');
    expect(page).toContain('Try adjusting your search criteria');
    const fragment = await html('/knowledge-base?view=category&q=nothingmatchesthis', hx);
    expect(fragment).toContain('Try adjusting your search criteria');
  });

  it('keeps the API preview of an item with its linked servers (the category view loads it)', async () => {
    const [server] = await t.db.insert(servers).values({ name: 'adfs-01', environment: 'production' }).returning();
    await t.db.insert(serverDocuments).values({ serverId: server.id, documentId: kb.id, documentType: 'runbook' });
    const api = await (await get(`/api/knowledge-base/${kb.id}?include=html`)).json();
    expect(api.servers).toEqual([
      expect.objectContaining({ id: server.id, name: 'adfs-01', status: 'unknown', environment: 'production' }),
    ]);
    expect(api.html).toContain('<h1>Heading</h1>');
    expect(api.html).not.toContain('onerror');
  });

  it('links each title of the grid and list to the item page, and of the documents grid to the editor (spec)', async () => {
    for (const view of ['grid', 'list']) {
      const page = await html(`/knowledge-base?view=${view}`);
      expect(page).toContain(`href="/knowledge-base/${kb.id}/reset-adfs-b-token-b"`);
      expect(page).not.toContain(`<a href="/knowledge-base/${kb.id}/edit"`);
    }
    const doc = (await (await get('/api/documents')).json()).find((d: { title: string }) => d.title === 'Runbook doc');
    expect(await html('/documents')).toContain(`href="/documents/${doc.id}/edit"`);
  });

  it('deletes after the spec confirmation: htmx gets the new results and a toast; without JS a 303', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Doomed', content: 'x' }, user.id);
    const list = await html('/knowledge-base?view=list');
    const button = `href="/knowledge-base/${item.id}/delete" hx-get="/knowledge-base/${item.id}/delete"`;
    expect(list).toContain(`${button} hx-target="#confirm-delete" data-open-dialog="confirm-delete"`);
    expect(list).toContain('<dialog id="confirm-delete" class="dialog" aria-labelledby="confirm-delete-title">');
    const confirm = await html(`/knowledge-base/${item.id}/delete`, {
      'HX-Request': 'true',
      'HX-Target': 'confirm-delete',
      'HX-Current-URL': `${TEST_ORIGIN}/knowledge-base?view=list`,
    });
    expect(confirm).not.toContain('<html');
    expect(confirm).toContain('<h2 class="dialog__title" id="confirm-delete-title">Delete item</h2>');
    expect(confirm).toContain('Are you sure you want to delete &quot;Doomed&quot;? This action cannot be undone.');
    expect(confirm).toContain('name="back" value="/knowledge-base?view=list"');
    expect(confirm).toContain(`hx-post="/knowledge-base/${item.id}/delete" hx-target="#kb-results"`);
    expect(confirm).toContain('<button type="submit" class="btn btn--danger">Delete</button>');
    const res = await t.app.request(`/knowledge-base/${item.id}/delete`, {
      method: 'POST',
      headers: {
        Cookie: user.cookie,
        Origin: TEST_ORIGIN,
        'HX-Request': 'true',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'back=%2Fknowledge-base%3Fview%3Dlist',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.headers.get('hx-trigger')!)).toEqual({
      showToast: { title: 'Success', text: 'Knowledge base item deleted successfully.', variant: 'success' },
    });
    const body = await res.text();
    expect(body).toContain('<table class="table">');
    expect(body).not.toContain('Doomed');
    // A fresh, closed delete dialog comes with the results: swapping it in closes the open one.
    expect(body).toContain('<dialog id="confirm-delete" class="dialog" aria-labelledby="confirm-delete-title">');
    expect(body).not.toContain('<html');
    const other = await createItem(t.db, 'documents', { title: 'Doc to go', content: 'x' }, user.id);
    const plain = await t.app.request(`/documents/${other.id}/delete`, {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'back=https%3A%2F%2Fevil.example%2F',
    });
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/documents?deleted=1');
    expect(await html('/documents?deleted=1')).toContain('Document deleted successfully.');
  });

  it('asks on a page of its own without JavaScript, Cancel going back to the filtered list', async () => {
    const item = await createItem(t.db, 'documents', { title: 'Keep me', content: 'x' }, user.id);
    const path = `/documents/${item.id}/delete`;
    const referer = `${TEST_ORIGIN}/documents?q=keep`;
    // An htmx request aimed elsewhere (not at the dialog) gets the page too.
    const requests: Record<string, string>[] = [{ Referer: referer }, { ...hx, Referer: referer }];
    for (const headers of requests) {
      const page = await html(path, headers);
      expect(page).toContain('<title>Delete item');
      expect(page).toContain('Are you sure you want to delete &quot;Keep me&quot;? This action cannot be undone.');
      expect(page).toContain(`<form action="${path}" method="post">`);
      expect(page).toContain('<a class="btn btn--secondary" href="/documents?q=keep">Cancel</a>');
      expect(page).not.toContain('hx-post');
    }
    expect((await get('/documents/00000000-0000-4000-8000-000000000000/delete')).status).toBe(404);
  });

  it('counts and lists categories of live items only, with and without filters', async () => {
    const shown = async (path: string) =>
      /Showing (\d+ of \d+)/.exec((await html(path)).replaceAll('<!-- -->', ''))?.[1];
    const options = (page: string) =>
      [
        ...page
          .slice(page.indexOf('id="kb-category"'))
          .split('</select>')[0]
          .matchAll(/<option value="([^"]+)"/g),
      ].map((m) => m[1]);
    const gone = await createItem(
      t.db,
      'knowledge',
      { title: 'Retired VPN note', content: 'vpn', category: 'VPN' },
      user.id,
    );
    expect(options(await html('/knowledge-base'))).toEqual(['ADFS', 'Patching', 'VPN']);
    expect(await shown('/knowledge-base?limit=1')).toBe('1 of 4');
    await t.app.request(`/knowledge-base/${gone.id}/delete`, {
      method: 'POST',
      headers: { Cookie: user.cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(options(await html('/knowledge-base'))).toEqual(['ADFS', 'Patching']);
    expect(await shown('/knowledge-base?limit=1')).toBe('1 of 3');
    expect(await shown('/knowledge-base?limit=1&category=Patching')).toBeUndefined();
    expect(await shown('/knowledge-base?limit=1&q=patch')).toBeUndefined();
    await createItem(t.db, 'knowledge', { title: 'Patch Tuesday', content: 'monthly', category: 'Patching' }, user.id);
    expect(await shown('/knowledge-base?limit=1&q=patch')).toBe('1 of 2');
    expect(await shown('/knowledge-base?limit=1&category=Patching')).toBe('1 of 2');
    expect(options(await html('/documents'))).toEqual(['Citrix']);
  });

  it('shows document cards on /documents only', async () => {
    const page = await html('/documents');
    expect(page).toContain('Runbook doc');
    expect(page).not.toContain('Patch night');
    expect(page).toContain(`/edit"`);
  });
});
