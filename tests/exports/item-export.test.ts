import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { documents, objects } from '../../src/db/schema';
import { itemExport, itemZip } from '../../src/exports/service';
import { createItem } from '../../src/knowledge/service';
import type { Item } from '../../src/knowledge/schemas';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** GET /api/{base}/{id}/export.md and export.zip: one item as markdown with front matter, with its images. */

let t: TestContext;
let owner: TestUser;
let viewer: TestUser;

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(300, 7)]);
const MISSING = '5f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d';

const get = (who: TestUser | null, path: string) => t.app.request(path, jsonRequest('GET', undefined, who?.cookie));

/** Front matter and content of an exported file. */
function splitFile(text: string): { meta: Record<string, unknown>; content: string } {
  const m = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`no front matter in:\n${text}`);
  return { meta: parse(m[1]), content: m[2] };
}

async function image(data: Buffer, contentType: string, visibility: 'public' | 'private') {
  const [row] = await t.db
    .insert(objects)
    .values({ ownerId: owner.id, contentType, size: data.length, data, visibility })
    .returning({ id: objects.id });
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await createSignedInUser(t.db, { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
});
afterAll(() => t.close());

describe('export.md', () => {
  let item: Item;
  const content = '# Restart: "the" VPN\n\nStep one: drain.\n\n```sh\nsudo systemctl restart strongswan\n```';

  beforeAll(async () => {
    item = await createItem(
      t.db,
      'knowledge',
      {
        title: 'Restart: the "night" VPN',
        content,
        category: 'Network',
        tags: ['vpn', 'night: shift'],
        excerpt: 'How to restart it: quickly',
        templateType: 'how_to_guide',
        reviewIntervalDays: 90,
      },
      owner.id,
    );
  });

  it('answers the item as a markdown attachment: front matter (title, category, tags, type, excerpt …) and content', async () => {
    const res = await get(viewer, `/api/knowledge-base/${item.id}/export.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="restart-the-night-vpn.md"; filename*=UTF-8''restart-the-night-vpn.md`,
    );
    const text = await res.text();
    expect(text.startsWith('---\n')).toBe(true);
    const { meta, content: body } = splitFile(text);
    expect(meta).toEqual({
      id: item.id,
      title: 'Restart: the "night" VPN',
      space: 'knowledge',
      type: 'how-to-guide',
      templateType: 'how_to_guide',
      category: 'Network',
      tags: ['vpn', 'night: shift'],
      excerpt: 'How to restart it: quickly',
      version: 1,
      owner: 'olga@example.com',
      updatedAt: item.updatedAt,
      reviewDueAt: item.reviewDueAt,
    });
    // The content byte for byte: import reads back exactly what was stored.
    expect(body).toBe(content);
  });

  it('leaves out unset keys, and works for documents under their own base', async () => {
    const doc = await createItem(
      t.db,
      'documents',
      { title: 'Backup policy', content: 'Keep **three** copies.\n' },
      null,
    );
    const res = await get(viewer, `/api/documents/${doc.id}/export.md`);
    expect(res.status).toBe(200);
    const { meta, content: body } = splitFile(await res.text());
    expect(meta).toEqual({
      id: doc.id,
      title: 'Backup policy',
      space: 'documents',
      tags: [],
      version: 1,
      updatedAt: doc.updatedAt,
    });
    expect(body).toBe('Keep **three** copies.\n');
    // An item is found only under its own space's base.
    expect((await get(viewer, `/api/knowledge-base/${doc.id}/export.md`)).status).toBe(404);
  });

  it('is 401 signed out, 404 for a missing, deleted or malformed id', async () => {
    expect((await get(null, `/api/knowledge-base/${item.id}/export.md`)).status).toBe(401);
    const missing = await get(viewer, `/api/knowledge-base/${MISSING}/export.md`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Item not found.', code: 'not_found' });
    expect((await get(viewer, '/api/knowledge-base/not-an-id/export.md')).status).toBe(404);
    const gone = await createItem(t.db, 'knowledge', { title: 'Gone', content: 'x' }, owner.id);
    await t.db.update(documents).set({ deletedAt: new Date() }).where(eq(documents.id, gone.id));
    expect((await get(viewer, `/api/knowledge-base/${gone.id}/export.md`)).status).toBe(404);
  });
});

describe('restricted items', () => {
  it('are 404 (markdown, zip and print view) for whoever may not read them, and exported for their owner', async () => {
    const secret = await createItem(t.db, 'knowledge', { title: 'Root passwords', content: 'Vault.' }, owner.id);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, secret.id));
    for (const path of [
      `/api/knowledge-base/${secret.id}/export.md`,
      `/api/knowledge-base/${secret.id}/export.zip`,
      `/knowledge-base/${secret.id}/print`,
    ]) {
      expect((await get(viewer, path)).status, path).toBe(404);
      expect((await get(owner, path)).status, path).toBe(200);
    }
  });
});

describe('an item with images', () => {
  let item: Item;
  let publicId: string;
  let privateId: string;

  beforeAll(async () => {
    publicId = await image(PNG, 'image/png', 'public');
    privateId = await image(JPEG, 'image/jpeg', 'private');
    const content = [
      'The rack:',
      `![rack](/objects/${publicId})`,
      `<!-- width=300px height=auto -->\n![cabling](/objects/${privateId} "Cabling")`,
      `And again: ![rack again](/objects/${publicId})`,
      `A deleted one stays as it was: ![gone](/objects/${MISSING})`,
    ].join('\n\n');
    item = await createItem(t.db, 'knowledge', { title: 'Rack layout', content, category: 'DC' }, owner.id);
  });

  it('export.md redirects to export.zip', async () => {
    const res = await get(viewer, `/api/knowledge-base/${item.id}/export.md`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/api/knowledge-base/${item.id}/export.zip`);
  });

  it('export.zip holds the .md with links rewritten to images/<id>.<ext> and the images byte for byte', async () => {
    const res = await get(viewer, `/api/knowledge-base/${item.id}/export.zip`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('filename="rack-layout.zip"');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(
      ['rack-layout.md', `images/${publicId}.png`, `images/${privateId}.jpg`].sort(),
    );
    expect(Buffer.from(files[`images/${publicId}.png`]).equals(PNG)).toBe(true);
    expect(Buffer.from(files[`images/${privateId}.jpg`]).equals(JPEG)).toBe(true);
    const { meta, content } = splitFile(new TextDecoder().decode(files['rack-layout.md']));
    expect(meta).toMatchObject({ title: 'Rack layout', category: 'DC' });
    expect(content).toContain(`![rack](images/${publicId}.png)`);
    expect(content).toContain(`<!-- width=300px height=auto -->\n![cabling](images/${privateId}.jpg "Cabling")`);
    expect(content).toContain(`![rack again](images/${publicId}.png)`);
    expect(content).toContain(`![gone](/objects/${MISSING})`);
    expect(content).not.toContain(`/objects/${publicId}`);
  });

  it('export.zip links no image deleted after the item was prepared: that link stays /objects/{id}', async () => {
    const kept = await image(PNG, 'image/png', 'public');
    const deleted = await image(JPEG, 'image/jpeg', 'private');
    const content = `![kept](/objects/${kept}) ![deleted](/objects/${deleted})`;
    const vanishing = await createItem(t.db, 'knowledge', { title: 'Vanishing', content }, owner.id);
    const prepared = await itemExport(t.db, { id: viewer.id, role: 'viewer' }, 'knowledge', vanishing.id);
    expect(prepared?.images.map((i) => i.id)).toEqual([kept, deleted]);
    // Deleted between preparing the zip (the list of its images) and writing it.
    await t.db.delete(objects).where(eq(objects.id, deleted));
    const zip = await itemZip(t.db, prepared!);
    const files = unzipSync(new Uint8Array(await new Response(zip).arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([`images/${kept}.png`, 'vanishing.md'].sort());
    const { content: written } = splitFile(new TextDecoder().decode(files['vanishing.md']));
    expect(written).toBe(`![kept](images/${kept}.png) ![deleted](/objects/${deleted})`);
  });

  it('export.zip of an item without images holds its .md alone', async () => {
    const plain = await createItem(t.db, 'knowledge', { title: 'Plain', content: 'Text.' }, owner.id);
    const res = await get(viewer, `/api/knowledge-base/${plain.id}/export.zip`);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files)).toEqual(['plain.md']);
  });
});

describe('an item with a draft waiting for review', () => {
  it('exports what the read page shows: the published text, the draft with ?revision=draft for its editors', async () => {
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    const send = (who: TestUser, method: string, path: string, body: unknown) =>
      t.app.request(path, jsonRequest(method, body, who.cookie));
    expect((await send(admin, 'PUT', '/api/admin/review-policy', { 'work-instruction': 0 })).status).toBe(200);
    const created = await send(owner, 'POST', '/api/knowledge-base', {
      title: 'Renew certs',
      content: 'Old text.',
      templateType: 'work_instruction',
      isPublished: true,
    });
    const { id } = await created.json();
    expect((await send(admin, 'PUT', '/api/admin/review-policy', { 'work-instruction': 1 })).status).toBe(200);
    const edit = { title: 'Renew certs', content: 'New text.', version: 1 };
    expect((await send(owner, 'PUT', `/api/knowledge-base/${id}`, edit)).status).toBe(200);

    const read = async (who: TestUser, query = '') => {
      const res = await get(who, `/api/knowledge-base/${id}/export.md${query}`);
      expect(res.status).toBe(200);
      return splitFile(await res.text());
    };
    expect(await read(viewer)).toMatchObject({ meta: { version: 1 }, content: 'Old text.' });
    expect(await read(owner)).toMatchObject({ meta: { version: 1 }, content: 'Old text.' });
    expect(await read(owner, '?revision=draft')).toMatchObject({ meta: { version: 2 }, content: 'New text.' });
    expect(await read(viewer, '?revision=draft')).toMatchObject({ meta: { version: 1 }, content: 'Old text.' });
    const draftPage = await (await get(owner, `/knowledge-base/${id}?revision=draft`)).text();
    expect(draftPage).toContain(`href="/api/knowledge-base/${id}/export.md?revision=draft"`);
    expect(draftPage).toContain(`href="/knowledge-base/${id}/print?revision=draft"`);
    const printed = await (await get(owner, `/knowledge-base/${id}/print?revision=draft`)).text();
    expect(printed).toContain('<p>New text.</p>');
    expect(printed).toContain('<dt>Version</dt><dd>v2</dd>');
  });
});
