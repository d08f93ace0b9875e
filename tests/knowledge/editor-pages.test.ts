import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPreferences } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { pageWeight } from '../bench/measure';
import { createTestApp, testBuildDir, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let ctx: TestContext;
let user: TestUser;

const get = (url: string, cookie = user.cookie) => ctx.app.request(url, { headers: { Cookie: cookie } });
const islandProps = (html: string) => {
  const m = /<app-island data-name="DocumentEditor"[^>]*data-props="([^"]*)"/.exec(html);
  if (!m) throw new Error('no DocumentEditor island');
  return JSON.parse(
    m[1]
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
};

describe('editor pages', () => {
  beforeAll(async () => {
    ctx = await createTestApp();
    user = await createSignedInUser(ctx.db);
  });
  afterAll(() => ctx.close());

  it('sends signed-out visitors to the login page', async () => {
    const res = await ctx.app.request('/knowledge-base/new?type=how-to-guide');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?next=%2Fknowledge-base%2Fnew%3Ftype%3Dhow-to-guide');
  });

  it.each([
    ['/knowledge-base/new?type=knowledge-base', 'Create Knowledge Base', 'knowledge-base'],
    ['/knowledge-base/new?type=work-instruction', 'Create Work Instruction', 'work-instruction'],
    ['/knowledge-base/new?type=how-to-guide', 'Create How-To Guide', 'how-to-guide'],
    ['/knowledge-base/new?type=build-document', 'Create Build Document', 'build-document'],
    ['/knowledge-base/new?type=nonsense', 'Create Knowledge Base', 'knowledge-base'],
    ['/documents/new', 'Create Document', 'document'],
  ])('%s renders "%s" with the editor island, server-rendered', async (url, title, kind) => {
    const res = await get(url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<title>${title} · Ops Hub</title>`);
    expect(html).toContain(`>${title}</h1>`);
    const props = islandProps(html);
    expect(props).toMatchObject({ kind, item: null });
    expect(props.base).toBe(url.startsWith('/documents') ? '/api/documents' : '/api/knowledge-base');
    // Readable before any script: the fields are in the HTML.
    expect(html).toMatch(/<label[^>]*>Title<\/label>/);
    expect(html).toContain('Save');
  });

  it('opens an existing item with its kind, version and form model; unknown ids are 404', async () => {
    const item = await createItem(
      ctx.db,
      'knowledge',
      {
        title: 'Reset MFA',
        content: '# Reset',
        templateType: 'how_to_guide',
        formModel: { kind: 'howto', purpose: 'Reset it', steps: [], tips: [] },
      },
      user.id,
    );
    const res = await get(`/knowledge-base/${item.id}/edit`);
    const html = await res.text();
    expect(html).toContain('>Edit How-To Guide</h1>');
    expect(html).toContain('>Reset it</textarea>'); // the purpose field is in the server HTML
    expect(islandProps(html).item).toMatchObject({ id: item.id, version: 1, formModel: { purpose: 'Reset it' } });
    expect(html).toContain('Version History');
    expect((await get('/knowledge-base/00000000-0000-4000-8000-000000000000/edit')).status).toBe(404);
    expect((await get(`/documents/${item.id}/edit`)).status).toBe(404); // a knowledge item is not a document
    const doc = await createItem(ctx.db, 'documents', { title: 'Runbook', content: 'x' }, user.id);
    expect(await (await get(`/documents/${doc.id}/edit`)).text()).toContain('>Edit Document</h1>');
  });

  it("hands the island the user's saved timezone (the draft banner formats in it, not in the browser's)", async () => {
    const perth = await createSignedInUser(ctx.db);
    await ctx.db.insert(userPreferences).values({ userId: perth.id, timezone: 'Australia/Perth' });
    expect(islandProps(await (await get('/documents/new', perth.cookie)).text()).timeZone).toBe('Australia/Perth');
  });

  it("hands the island the user's Auto-save documents setting (on by default)", async () => {
    expect(islandProps(await (await get('/documents/new')).text()).autoSave).toBe(true);
    const manual = await createSignedInUser(ctx.db);
    await ctx.db.insert(userPreferences).values({ userId: manual.id, autoSave: false });
    expect(islandProps(await (await get('/documents/new', manual.cookie)).text()).autoSave).toBe(false);
  });

  it('links the editor stylesheet, preloads only the small island chunk, never the rich editor', async () => {
    const html = await (await get('/documents/new')).text();
    const manifest = JSON.parse(readFileSync(path.join(testBuildDir, 'manifest.json'), 'utf8'));
    const entry = manifest.islands.DocumentEditor;
    expect(entry.css?.length).toBe(1);
    expect(html).toContain(`href="${entry.css[0]}"`);
    expect(html).not.toMatch(/RichEditor-[A-Z0-9]+\.js/);
    // Other pages do not get the editor's stylesheet.
    const list = await (await get('/documents')).text();
    expect(list).not.toContain(entry.css[0]);
  });

  it('weighs what npm run bench weighs: ≤ 380 KiB gzip JS for the editor route, most of it after first paint', async () => {
    const html = await (await get('/knowledge-base/new?type=knowledge-base')).text();
    const weight = pageWeight(html, ctx.deps.assets);
    console.log(`[editor] route JS gzip: initial ${weight.initialJs}, all ${weight.allJs}`);
    expect(weight.allBytes).toBeLessThanOrEqual(380 * 1024);
    expect(weight.initialBytes).toBeLessThan(weight.allBytes - 150 * 1024);
  });
});
