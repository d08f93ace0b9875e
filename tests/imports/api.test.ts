import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { GIF, PNG, uploadRequest, withDeclaredSize, zip } from './zips';
import { zipSync } from 'fflate';

let t: TestContext;
let editor: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  editor = await createSignedInUser(t.db, { role: 'editor' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
});
afterAll(() => t.close());

interface Entry {
  path: string;
  title: string;
  action: 'create' | 'skip' | 'error';
  reason?: string;
  itemId?: string;
}

const post = (query: string, files: { name: string; body: Uint8Array | string }[], cookie = editor.cookie) =>
  t.app.request(`/api/import?${query}`, uploadRequest(files, cookie));

async function dryRun(files: { name: string; body: Uint8Array | string }[], space = 'knowledge', cookie?: string) {
  const res = await post(`space=${space}&dryRun=true`, files, cookie);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { items: Entry[] }).items;
}

interface Report {
  status: string;
  done: number;
  total: number;
  created: number;
  skipped: number;
  errors: number;
  items: Entry[];
}

async function report(jobId: string, cookie = editor.cookie): Promise<Report> {
  const res = await t.app.request(`/api/import/${jobId}`, jsonRequest('GET', undefined, cookie));
  expect(res.status).toBe(200);
  return res.json();
}

/** Imports for real and waits for the job (run in this process right after the 202) to end. */
async function runImport(files: { name: string; body: Uint8Array | string }[], space = 'knowledge', cookie?: string) {
  const res = await post(`space=${space}&dryRun=false`, files, cookie);
  expect(res.status, await res.clone().text()).toBe(202);
  const { jobId } = (await res.json()) as { jobId: string };
  for (let i = 0; i < 300; i++) {
    const r = await report(jobId, cookie);
    if (r.status === 'done' || r.status === 'failed') return { jobId, ...r };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import did not finish');
}

const withoutIds = (items: Entry[]) => items.map(({ itemId: _, ...e }) => e);
const countItems = async () =>
  Number((await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from documents`))[0].n);
const countObjects = async () =>
  Number((await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from objects`))[0].n);

/** A zip like a real export: nested folders, front matter, images beside the files, and broken files. */
function knowledgeZip(): Uint8Array {
  return zip({
    'ops/linux/nginx.md': [
      '---',
      'title: Restart nginx',
      'category: Web',
      'tags: [nginx, web]',
      'type: troubleshooting',
      'excerpt: When the proxy hangs',
      'owner: someone@example.com',
      '---',
      '# Steps',
      '',
      '![diagram](images/diagram.png) and the logo ![logo](../shared/logo.gif)',
      '![remote](https://example.com/remote.png)',
    ].join('\n'),
    'ops/linux/images/diagram.png': PNG,
    'ops/shared/logo.gif': GIF,
    'ops/backup.md': '# Nightly backups\n\nThe same diagram: ![d](linux/images/diagram.png)\n',
    'ops/notes.txt': 'not markdown',
    'broken/yaml.md': '---\ntitle: [unclosed\n---\nText',
    'broken/fake-image.md': '# Fake image\n\n![x](images/fake.png)\n',
    'broken/images/fake.png': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'broken/missing-image.md': '# Missing image\n\n![x](nowhere.png)\n',
    'dup/one.md': '# Same title\n\nfirst',
    'dup/two.md': '# Same title\n\nsecond',
    'misc/already.md': '# Already here\n\ntext',
    'loose.md': 'No heading at all.',
    '__MACOSX/ops/._backup.md': new Uint8Array([0, 5, 22, 7]),
  });
}

describe('import of a zip with nested folders, front matter, images and broken files', () => {
  let dry: Entry[];
  let real: Report & { jobId: string };
  let itemsBefore: number;
  let objectsBefore: number;

  beforeAll(async () => {
    const existing = await t.app.request(
      '/api/knowledge-base',
      jsonRequest('POST', { title: 'Already here', content: 'old' }, admin.cookie),
    );
    expect(existing.status).toBe(201);
    dry = await dryRun([{ name: 'export.zip', body: knowledgeZip() }]);
    itemsBefore = await countItems();
    objectsBefore = await countObjects();
    real = await runImport([{ name: 'export.zip', body: knowledgeZip() }]);
  });

  it('previews each file: created, skipped (taken title, twice in the upload, not Markdown) or an error with why', () => {
    const byPath = Object.fromEntries(dry.map((e) => [e.path, e]));
    expect(dry.map((e) => e.path)).toEqual([
      'broken/fake-image.md',
      'broken/missing-image.md',
      'broken/yaml.md',
      'dup/one.md',
      'dup/two.md',
      'loose.md',
      'misc/already.md',
      'ops/backup.md',
      'ops/linux/nginx.md',
      'ops/notes.txt',
    ]);
    expect(byPath['ops/linux/nginx.md']).toEqual({
      path: 'ops/linux/nginx.md',
      title: 'Restart nginx',
      action: 'create',
    });
    expect(byPath['ops/backup.md']).toMatchObject({ title: 'Nightly backups', action: 'create' });
    expect(byPath['loose.md']).toMatchObject({ title: 'loose', action: 'create' });
    expect(byPath['dup/one.md'].action).toBe('create');
    expect(byPath['dup/two.md']).toMatchObject({ action: 'skip', reason: expect.stringContaining('dup/one.md') });
    expect(byPath['misc/already.md']).toMatchObject({ action: 'skip', reason: expect.stringContaining('already') });
    expect(byPath['ops/notes.txt'].action).toBe('skip');
    expect(byPath['broken/yaml.md']).toMatchObject({ action: 'error', reason: expect.stringMatching(/YAML/) });
    expect(byPath['broken/fake-image.md']).toMatchObject({
      action: 'error',
      reason: 'Image "images/fake.png" is not a PNG, JPEG, GIF or WebP image.',
    });
    expect(byPath['broken/missing-image.md'].reason).toBe('Image "nowhere.png" is not in the upload.');
  });

  it('imports as a job whose report agrees with the preview, and changes nothing else', async () => {
    expect(real).toMatchObject({ status: 'done', done: 10, total: 10, created: 4, skipped: 3, errors: 3 });
    expect(withoutIds(real.items)).toEqual(dry);
    expect(real.items.filter((e) => e.itemId).map((e) => e.path)).toEqual([
      'dup/one.md',
      'loose.md',
      'ops/backup.md',
      'ops/linux/nginx.md',
    ]);
    expect(await countItems()).toBe(itemsBefore + 4);
    // The PNG (shown by two files) and the GIF, once each; the fake image of the broken file not at all.
    expect(await countObjects()).toBe(objectsBefore + 2);
  });

  it('keeps front matter, the folder as category, and images as our objects (the same bytes once)', async () => {
    const id = real.items.find((e) => e.path === 'ops/linux/nginx.md')!.itemId!;
    const res = await t.app.request(`/api/knowledge-base/${id}`, jsonRequest('GET', undefined, editor.cookie));
    const item = await res.json();
    expect(item).toMatchObject({
      title: 'Restart nginx',
      category: 'Web',
      tags: ['nginx', 'web'],
      templateType: 'troubleshooting',
      excerpt: 'When the proxy hangs',
      ownerId: editor.id,
    });
    const links = [...item.content.matchAll(/\]\((\/objects\/[0-9a-f-]{36})\)/g)].map((m) => m[1]);
    expect(links).toHaveLength(2);
    expect(item.content).toContain('![remote](https://example.com/remote.png)');
    const png = await t.app.request(links[0], { headers: { Cookie: editor.cookie } });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await t.app.request(links[1], { headers: { Cookie: editor.cookie } })).headers.get('content-type')).toBe(
      'image/gif',
    );

    const backupId = real.items.find((e) => e.path === 'ops/backup.md')!.itemId!;
    const backup = await (
      await t.app.request(`/api/knowledge-base/${backupId}`, jsonRequest('GET', undefined, editor.cookie))
    ).json();
    expect(backup).toMatchObject({ title: 'Nightly backups', category: 'ops' });
    expect(backup.content).toContain(`(${links[0]})`);
    expect(backup.content).not.toContain('# Nightly backups');
  });

  it('a second import of the same zip creates nothing: every title is taken', async () => {
    const again = await dryRun([{ name: 'export.zip', body: knowledgeZip() }]);
    expect(again.filter((e) => e.action === 'create')).toEqual([]);
  });
});

describe('Markdown files uploaded as they are', () => {
  it('imports .md files with their images into the documents space; folder names of a folder upload kept', async () => {
    const objectsBefore = await countObjects();
    const r = await runImport(
      [
        { name: 'Runbook one.md', body: '---\ntitle: Doc with image\ntype: maintenance\n---\n![i](pic.png)' },
        { name: 'pic.png', body: PNG },
        { name: 'team/second.md', body: '# Second doc\n\nText' },
      ],
      'documents',
    );
    expect(withoutIds(r.items)).toEqual([
      { path: 'Runbook one.md', title: 'Doc with image', action: 'create' },
      { path: 'team/second.md', title: 'Second doc', action: 'create' },
    ]);
    const doc = await (
      await t.app.request(`/api/documents/${r.items[0].itemId}`, jsonRequest('GET', undefined, editor.cookie))
    ).json();
    expect(doc).toMatchObject({ templateType: 'maintenance' });
    expect(doc.content).toMatch(/^!\[i\]\(\/objects\/[0-9a-f-]{36}\)$/);
    expect(await countObjects()).toBe(objectsBefore + 1);
  });
});

describe('refusals, at once and before any job', () => {
  const jobs = async () =>
    Number((await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from import_jobs`))[0].n);

  it('a zip-slip path: 400 naming it', async () => {
    const before = await jobs();
    for (const dryRun of ['true', 'false']) {
      const res = await post(`space=knowledge&dryRun=${dryRun}`, [
        { name: 'slip.zip', body: zip({ 'ok.md': '# ok', '../../etc/evil.md': '# evil' }) },
      ]);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain('"../../etc/evil.md"');
    }
    expect(await jobs()).toBe(before);
  });

  it('zip bombs: by declared size, by ratio, and by a header that lies about what it inflates to', async () => {
    const before = await jobs();
    const declared = withDeclaredSize(zip({ 'a.md': '# a', 'b.md': '# b' }), 0, 250 * 1024 * 1024);
    const ratio = zipSync({ 'zeros.md': new Uint8Array(4 * 1024 * 1024) }, { level: 9 });
    const lying = withDeclaredSize(zipSync({ 'lie.md': new Uint8Array(600_000).fill(35) }, { level: 9 }), 0, 5000);
    for (const body of [declared, ratio, lying]) {
      const res = await post('space=knowledge&dryRun=false', [{ name: 'bomb.zip', body }]);
      expect(res.status).toBe(413);
      const json = await res.json();
      expect(json.code).toBe('zip_bomb');
      expect(json.message).toMatch(/zip bomb|refused/);
    }
    expect(await jobs()).toBe(before);
  });

  it('over 50 MB: by Content-Length at once, and while reading a body that has none', async () => {
    const claimed = await t.app.request('/api/import?space=knowledge', {
      method: 'POST',
      headers: {
        Origin: TEST_ORIGIN,
        Cookie: editor.cookie,
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': String(60 * 1024 * 1024),
      },
      body: '--x--\r\n',
    });
    expect(claimed.status).toBe(413);
    const big = new Uint8Array(51 * 1024 * 1024);
    const res = await post('space=knowledge&dryRun=true', [{ name: 'big.zip', body: big }]);
    expect(res.status).toBe(413);
    expect((await res.json()).message).toContain('50 MB');
  });

  it('more than 2,000 files, no file, a bad space and a body that is not a form', async () => {
    const many = Array.from({ length: 2001 }, (_, i) => ({ name: `f${i}.md`, body: '# x' }));
    expect((await post('space=knowledge&dryRun=true', many)).status).toBe(413);
    expect((await post('space=knowledge&dryRun=true', [])).status).toBe(400);
    expect((await post('space=elsewhere&dryRun=true', [{ name: 'a.md', body: '# a' }])).status).toBe(400);
    const json = await t.app.request('/api/import?space=knowledge', jsonRequest('POST', { files: [] }, editor.cookie));
    expect(json.status).toBe(415);
  });
});

describe('who may import and read a report', () => {
  it('viewers and auditors may not import (403); signed-out visitors 401', async () => {
    for (const role of ['viewer', 'auditor'] as const) {
      const user = await createSignedInUser(t.db, { role });
      const res = await post('space=knowledge&dryRun=true', [{ name: 'a.md', body: '# a' }], user.cookie);
      expect(res.status).toBe(403);
      expect(typeof (await res.json()).message).toBe('string');
    }
    expect(
      (await t.app.request('/api/import?space=knowledge', uploadRequest([{ name: 'a.md', body: 'x' }]))).status,
    ).toBe(401);
  });

  it('a report is read by its creator and admins; another editor gets 404', async () => {
    const mine = await runImport([{ name: 'report-reading.md', body: '# Report reading\n\ntext' }]);
    expect((await report(mine.jobId, admin.cookie)).created).toBe(1);
    const other = await createSignedInUser(t.db, { role: 'editor' });
    const res = await t.app.request(`/api/import/${mine.jobId}`, jsonRequest('GET', undefined, other.cookie));
    expect(res.status).toBe(404);
    expect((await t.app.request('/api/import/not-a-uuid', jsonRequest('GET', undefined, editor.cookie))).status).toBe(
      404,
    );
  });

  it('throttles uploads per user: the 21st in an hour answers 429 with Retry-After', async () => {
    const busy = await createSignedInUser(t.db, { role: 'editor' });
    for (let i = 0; i < 20; i++) {
      expect((await post('space=knowledge&dryRun=true', [{ name: 'a.md', body: '# a' }], busy.cookie)).status).toBe(
        200,
      );
    }
    const res = await post('space=knowledge&dryRun=true', [{ name: 'a.md', body: '# a' }], busy.cookie);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('what a file holds, read the same by the preview and the job', () => {
  it('front matter text the database cannot store: the file’s error in both, the rest imported', async () => {
    const user = await createSignedInUser(t.db, { role: 'editor' });
    const files = [
      {
        name: 'nul.zip',
        body: zip({
          'nul-title.md': '---\ntitle: "Bad \\0 title"\n---\nBody',
          'half-tag.md': '---\ntitle: Half a pair\ntags: ["\\uD83D"]\n---\nBody',
          'fine.md': '---\ntitle: Storable front matter\ntags: ["\\U0001F600"]\n---\nBody',
        }),
      },
    ];
    const dry = await dryRun(files, 'knowledge', user.cookie);
    expect(dry).toEqual([
      { path: 'fine.md', title: 'Storable front matter', action: 'create' },
      {
        path: 'half-tag.md',
        title: 'half-tag',
        action: 'error',
        reason: 'Front matter "tags" contains a lone surrogate (U+D800–U+DFFF), which is not valid Unicode.',
      },
      {
        path: 'nul-title.md',
        title: 'nul-title',
        action: 'error',
        reason: 'Front matter "title" contains the NUL character (U+0000), which cannot be stored.',
      },
    ]);
    const real = await runImport(files, 'knowledge', user.cookie);
    expect(real).toMatchObject({ status: 'done', total: 3, created: 1, skipped: 0, errors: 2 });
    expect(withoutIds(real.items)).toEqual(dry);
  });

  it('images linked in ways the first reading missed: brackets in the alt text, unquoted <img>, &amp;, another case', async () => {
    const user = await createSignedInUser(t.db, { role: 'editor' });
    const files = [
      {
        name: 'links.zip',
        body: zip({
          'notes/links.md': [
            '# Links of all kinds',
            '',
            '![a [bracketed] alt](pics/one.png)',
            '<img src=pics/two.gif alt=two>',
            '<img src="pics/a&amp;b.png">',
            '![case](Pics/One.PNG)',
            '',
            '```',
            '![in code](pics/one.png)',
            '```',
          ].join('\n'),
          'notes/pics/one.png': PNG,
          'notes/pics/two.gif': GIF,
          'notes/pics/a&b.png': PNG,
        }),
      },
    ];
    expect(await dryRun(files, 'knowledge', user.cookie)).toEqual([
      { path: 'notes/links.md', title: 'Links of all kinds', action: 'create' },
    ]);
    const real = await runImport(files, 'knowledge', user.cookie);
    expect(real).toMatchObject({ status: 'done', created: 1 });
    const item = await (
      await t.app.request(`/api/knowledge-base/${real.items[0].itemId}`, jsonRequest('GET', undefined, user.cookie))
    ).json();
    const lines = (item.content as string).split('\n');
    const object = '/objects/[0-9a-f-]{36}';
    expect(lines[0]).toMatch(new RegExp(`^!\\[a \\[bracketed\\] alt\\]\\(${object}\\)$`));
    expect(lines[1]).toMatch(new RegExp(`^<img src=${object} alt=two>$`));
    expect(lines[2]).toMatch(new RegExp(`^<img src="${object}">$`));
    expect(lines[3]).toMatch(new RegExp(`^!\\[case\\]\\(${object}\\)$`));
    expect(lines[0].slice(-45)).toBe(lines[3].slice(-45)); // one.png either way: the same object
    expect(lines.slice(5)).toEqual(['```', '![in code](pics/one.png)', '```']);
  });
});
