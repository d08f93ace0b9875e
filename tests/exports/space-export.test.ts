import { posix } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../src/db/client';
import { parse } from 'yaml';
import { auditLog, documents, objects } from '../../src/db/schema';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../src/db/unavailable';
import { EXPORT_PAGE_SIZE, spaceEntries } from '../../src/exports/service';
import type { ZipEntry } from '../../src/exports/zip-stream';
import { createItem, listItems } from '../../src/knowledge/service';
import { objectInfos } from '../../src/objects/service';
import type { KbType, Space } from '../../src/knowledge/schemas';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** GET /api/export: a whole space (admins) as a zip of markdown files and images, the list's filters, streamed. */

// The real objectInfos, watched: how many objects queries an export makes.
vi.mock('../../src/objects/service', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/objects/service')>();
  return { ...real, objectInfos: vi.fn(real.objectInfos) };
});

let t: TestContext;
let admin: TestUser;
let editor: TestUser;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000002000000020806000000', 'hex');

const get = (who: TestUser | null, query: string) =>
  t.app.request(`/api/export?${query}`, jsonRequest('GET', undefined, who?.cookie));

/** path → text of each .md, and the raw files. */
async function unzipped(res: Response) {
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const md = Object.fromEntries(
    Object.entries(files)
      .filter(([name]) => name.endsWith('.md'))
      .map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]),
  );
  return { files, md };
}

const metaOf = (text: string) => parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]) as Record<string, unknown>;
const idsIn = (md: Record<string, string>) => Object.values(md).map((text) => metaOf(text).id as string);

/** Each image link of the .md files: the file, the link as written, and the zip path it points at from there. */
function imageLinks(md: Record<string, string>) {
  return Object.entries(md).flatMap(([file, text]) =>
    [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map((m) => ({
      file,
      link: m[1],
      target: posix.normalize(posix.join(posix.dirname(file), m[1])),
    })),
  );
}

let imageId: string;

/** A stored PNG image owned by the editor; its id. */
async function storeImage(): Promise<string> {
  const [row] = await t.db
    .insert(objects)
    .values({ ownerId: editor.id, contentType: 'image/png', size: PNG.length, data: PNG, visibility: 'private' })
    .returning({ id: objects.id });
  return row.id;
}

const kb = (title: string, extra: Record<string, unknown> = {}) =>
  createItem(t.db, 'knowledge', { title, content: `# ${title}\n\nBody of ${title}.`, ...extra }, editor.id);

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  editor = await createSignedInUser(t.db, { role: 'editor' });
  imageId = await storeImage();
  await kb('VPN restart', { category: 'Network' });
  await kb('VPN restart', { category: 'Network', content: `Second one.\n\n![diagram](/objects/${imageId})` });
  await kb('VPN Restart!', { category: 'Network', content: `Third, same image.\n\n![again](/objects/${imageId})` });
  await kb('SAN layout', { category: 'Storage', content: `The same image here.\n\n![san](/objects/${imageId})` });
  await kb('Rack photo', { content: `No category, the same image.\n\n![rack](/objects/${imageId})` });
  await kb('Firewall rules', { category: 'Network', templateType: 'how_to_guide', tags: ['fw'] });
  await kb('../../etc/passwd', { category: '../../etc' });
  await kb('Loose note about patching');
  await kb('Patch Tuesday build', { category: 'Builds', templateType: 'build_document' });
  const restricted = await kb('Owner only', { category: 'Secret' });
  await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, restricted.id));
  const gone = await kb('Deleted one', { category: 'Network' });
  await t.db.update(documents).set({ deletedAt: new Date() }).where(eq(documents.id, gone.id));
  await createItem(t.db, 'documents', { title: 'Backup policy', content: 'Three copies.', category: 'Policy' }, null);
});
afterAll(() => t.close());

describe('who may export a space', () => {
  it('is admins only: 401 signed out, 403 for an editor, 400 for a bad space or filter', async () => {
    expect((await get(null, 'space=knowledge')).status).toBe(401);
    const refused = await get(editor, 'space=knowledge');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: expect.any(String) });
    const bad = await get(admin, 'space=servers');
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('space must be "knowledge" or "documents".');
    expect((await get(admin, '')).status).toBe(400);
    expect((await get(admin, 'space=knowledge&type=nope')).status).toBe(400);
    expect((await get(admin, `space=knowledge&q=${'x'.repeat(201)}`)).status).toBe(400);
  });
});

describe('the zip', () => {
  it('holds every live item of the space in <category>/<slug>.md, duplicates -2, -3, images under images/', async () => {
    const res = await get(admin, 'space=knowledge&q=&type=&category=');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="knowledge-base-\d{4}-\d\d-\d\d\.zip"/,
    );
    const { files, md } = await unzipped(res);
    expect(Object.keys(md).sort()).toEqual(
      [
        'Network/vpn-restart.md',
        'Network/vpn-restart-2.md',
        'Network/vpn-restart-3.md',
        'Network/firewall-rules.md',
        'etc/etc-passwd.md',
        'loose-note-about-patching.md',
        'Builds/patch-tuesday-build.md',
        'Secret/owner-only.md',
        'Storage/san-layout.md',
        'rack-photo.md',
      ].sort(),
    );
    // One copy of the image four items of three folders share, at the top, byte for byte.
    expect(Object.keys(files).filter((f) => !f.endsWith('.md'))).toEqual([`images/${imageId}.png`]);
    expect(Buffer.from(files[`images/${imageId}.png`]).equals(PNG)).toBe(true);
    expect(md['Network/vpn-restart-2.md']).toContain(`![diagram](../images/${imageId}.png)`);
    expect(md['Network/vpn-restart-3.md']).toContain(`![again](../images/${imageId}.png)`);
    expect(md['Storage/san-layout.md']).toContain(`![san](../images/${imageId}.png)`);
    expect(md['rack-photo.md']).toContain(`![rack](images/${imageId}.png)`);
    // Every image link leads, from its own file's folder, to a file of the zip.
    const links = imageLinks(md);
    expect(links).toHaveLength(4);
    for (const { file, link, target } of links) expect(files[target], `${link} in ${file}`).toBeDefined();
    expect(metaOf(md['Network/firewall-rules.md'])).toMatchObject({
      title: 'Firewall rules',
      category: 'Network',
      tags: ['fw'],
      type: 'how-to-guide',
      space: 'knowledge',
    });
    expect(metaOf(md['etc/etc-passwd.md'])).toMatchObject({ title: '../../etc/passwd', category: '../../etc' });
    // No path in the archive climbs out of it or starts at its root.
    for (const name of Object.keys(files)) expect(name.split('/')).not.toContain('..');
  });

  it('exports the documents space alone', async () => {
    const { md } = await unzipped(await get(admin, 'space=documents'));
    expect(Object.keys(md)).toEqual(['Policy/backup-policy.md']);
  });

  it('records who exported what in the audit trail', async () => {
    await get(admin, 'space=knowledge&category=Builds');
    const [event] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'data.export'))
      .orderBy(sql`${auditLog.createdAt} desc`)
      .limit(1);
    expect(event).toMatchObject({ actorId: admin.id, entityType: 'space', entityId: 'knowledge' });
    expect(event.details).toEqual({ category: 'Builds' });
  });
});

describe('HEAD', () => {
  it('answers the headers alone: nothing audited, nothing counted against the limit', async () => {
    const exports = async () => (await t.db.select().from(auditLog).where(eq(auditLog.action, 'data.export'))).length;
    const counted = async () => {
      const [r] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from rate_limit_hits where key like 'export:space:%'`,
      );
      return Number(r.n);
    };
    const [auditedBefore, countedBefore] = [await exports(), await counted()];
    const res = await t.app.request('/api/export?space=knowledge', {
      method: 'HEAD',
      headers: { Cookie: admin.cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/zip');
    expect(res.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="knowledge-base-\d{4}-\d{2}-\d{2}\.zip"/,
    );
    expect(await exports()).toBe(auditedBefore);
    expect(await counted()).toBe(countedBefore);
  });
});

describe('filters', () => {
  const cases: { space: Space; query: Record<string, string> }[] = [
    { space: 'knowledge', query: { category: 'Network' } },
    { space: 'knowledge', query: { category: 'Uncategorized' } },
    { space: 'knowledge', query: { type: 'how-to-guide' } },
    { space: 'knowledge', query: { type: 'knowledge-base', category: 'Network' } },
    { space: 'knowledge', query: { q: 'patch' } },
    { space: 'knowledge', query: { q: 'vpn', category: 'Network' } },
    { space: 'documents', query: { q: 'copies' } },
  ];
  for (const { space, query } of cases) {
    it(`${space} ${new URLSearchParams(query)}: exactly the items the list shows`, async () => {
      const res = await get(admin, new URLSearchParams({ space, ...query }).toString());
      expect(res.status).toBe(200);
      const { md } = await unzipped(res);
      const listed = await listItems(t.db, space, {
        ...query,
        type: query.type as KbType | undefined,
        viewer: { id: admin.id, role: 'admin' },
      });
      expect(listed.length).toBeGreaterThan(0);
      expect(idsIn(md).sort()).toEqual(listed.map((i) => i.id).sort());
    });
  }
});

/** Every entry of a space export as the zip takes them, read by the service itself. */
async function entriesOf(category: string, pageSize?: number, onEntry?: (entry: ZipEntry) => Promise<void>) {
  const entries: ZipEntry[] = [];
  for await (const entry of spaceEntries(t.db, { id: admin.id, role: 'admin' }, 'knowledge', { category }, pageSize)) {
    entries.push(entry);
    await onEntry?.(entry);
  }
  return entries;
}

const text = (entry: ZipEntry | undefined) => new TextDecoder().decode(entry?.data);

describe('images of a page', () => {
  it('are looked up with one objects query per page of items, not one per item', async () => {
    const shared = await storeImage();
    const own: string[] = [];
    for (let i = 1; i <= 12; i++) {
      own.push(await storeImage());
      await kb(`Batched ${i}`, {
        category: 'Batched',
        content: `![own](/objects/${own[i - 1]}) and ![shared](/objects/${shared})`,
      });
    }
    vi.mocked(objectInfos).mockClear();
    const entries = await entriesOf('Batched', 5);
    // 12 items in pages of 5: three pages, three queries (each asking for that page's images at once).
    const queries = vi.mocked(objectInfos).mock.calls.filter(([, ids]) => ids.length > 0);
    expect(queries).toHaveLength(3);
    expect(queries.map(([, ids]) => ids.length)).toEqual([6, 6, 3]);
    expect(entries.filter((e) => e.name.endsWith('.md'))).toHaveLength(12);
    expect(
      entries
        .filter((e) => e.name.startsWith('images/'))
        .map((e) => e.name)
        .sort(),
    ).toEqual([shared, ...own].map((id) => `images/${id}.png`).sort());
  });
});

describe('an image deleted while the export runs', () => {
  it('is not linked to: the item keeps its /objects/{id} link, no file is missing from the zip', async () => {
    const [kept, deleted] = [await storeImage(), await storeImage()];
    await kb('First', { category: 'Vanishing', content: `![kept](/objects/${kept})` });
    await kb('Second', { category: 'Vanishing', content: `![deleted](/objects/${deleted}) ![kept](/objects/${kept})` });
    // Both items are read in one page, their images listed; the second's is deleted before its turn comes.
    const entries = await entriesOf('Vanishing', 10, async (entry) => {
      if (entry.name === 'Vanishing/first.md') await t.db.delete(objects).where(eq(objects.id, deleted));
    });
    expect(entries.map((e) => e.name)).toEqual([`images/${kept}.png`, 'Vanishing/first.md', 'Vanishing/second.md']);
    const second = text(entries.find((e) => e.name === 'Vanishing/second.md'));
    expect(second).toContain(`![deleted](/objects/${deleted}) ![kept](../images/${kept}.png)`);
    expect(text(entries[1])).toContain(`![kept](../images/${kept}.png)`);
  });
});

/**
 * Makes every read of the documents table fail as PostgreSQL fails a statement it cancels (57014, what our
 * statement_timeout raises) until `restore` is called: the table is renamed and a view that raises takes its name.
 */
async function failDocumentReads(): Promise<{ restore: () => Promise<void> }> {
  await t.db.execute(sql`alter table documents rename to documents_kept`);
  await t.db.execute(
    sql.raw(`create function documents_fault() returns boolean language plpgsql as $$
      begin raise exception 'canceling statement due to statement timeout' using errcode = 'query_canceled'; end $$`),
  );
  await t.db.execute(sql`create view documents as select * from documents_kept where documents_fault()`);
  return {
    restore: async () => {
      await t.db.execute(sql`drop view documents`);
      await t.db.execute(sql`drop function documents_fault()`);
      await t.db.execute(sql`alter table documents_kept rename to documents`);
    },
  };
}

const exportsAudited = async () =>
  (await t.db.select().from(auditLog).where(eq(auditLog.action, 'data.export'))).length;

describe('a database that fails', () => {
  it('on the first page answers 503 with a message (no 200, no cut-off zip), nothing audited', async () => {
    const before = await exportsAudited();
    const fault = await failDocumentReads();
    let res: Response;
    try {
      res = await get(admin, 'space=knowledge');
    } finally {
      await fault.restore();
    }
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(await res.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'database_unavailable' });
    expect(await exportsAudited()).toBe(before);
    // The same export works once the database does.
    expect((await get(admin, 'space=knowledge&category=Network')).status).toBe(200);
  });
});

describe('streaming', () => {
  const BULK = EXPORT_PAGE_SIZE * 2 + 50;

  beforeAll(async () => {
    await t.db.execute(sql`
      insert into documents (space, title, content, category, created_at, updated_at)
      select 'knowledge', 'Bulk item ' || g, 'Bulk body ' || g, 'Bulk',
             now() - interval '1 day' + g * interval '1 millisecond', now()
      from generate_series(1, ${BULK}) g`);
  });

  it('sends its first bytes before it has read the whole space: an item added after them is still in the zip', async () => {
    const res = await get(admin, 'space=knowledge&category=Bulk');
    expect(res.status).toBe(200);
    // The compression middleware would have read the whole stream into memory first.
    expect(res.headers.get('content-encoding')).toBeNull();
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(first.value!.byteLength).toBeGreaterThan(0);
    // Created now, so it sorts after every bulk item: only an export that reads page by page, as the zip is
    // taken, can still see it. One that read everything first (or read ahead) cannot.
    const late = await createItem(
      t.db,
      'knowledge',
      { title: 'Added mid-export', content: 'x', category: 'Bulk' },
      null,
    );
    const chunks: Uint8Array[] = [first.value!];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    const { md } = await unzipped(new Response(Buffer.concat(chunks)));
    expect(Object.keys(md)).toHaveLength(BULK + 1);
    expect(md['Bulk/added-mid-export.md']).toBeDefined();
    expect(idsIn(md)).toContain(late.id);
    expect(new Set(idsIn(md)).size).toBe(BULK + 1);
  });

  it('can only end in error when the database fails after the first bytes went out (the log says why)', async () => {
    const logged = vi.spyOn(t.deps.logger, 'error');
    const res = await get(admin, 'space=knowledge&category=Bulk');
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // The first page is read; the second fails.
    const fault = await failDocumentReads();
    try {
      await expect(
        (async () => {
          for (let r = await reader.read(); !r.done; r = await reader.read());
        })(),
      ).rejects.toThrow();
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({ path: '/api/export' }),
        'export failed while streaming',
      );
    } finally {
      await fault.restore();
      logged.mockRestore();
    }
  });
});
