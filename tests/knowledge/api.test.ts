import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents, documentVersions } from '../../src/db/schema';
import { emptyBuild, emptyHowTo } from '../../src/knowledge/shared';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db, { firstName: 'Ada', lastName: 'Lovelace' });
  admin = await createSignedInUser(t.db, { role: 'admin' });
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown, cookie = user.cookie) =>
  t.app.request(path, jsonRequest(method, body, cookie));
const base = { title: 'Patch Windows servers', content: '# Steps\n\n1. Drain\n2. Patch' };

describe.each([
  ['/api/documents', 'documents'],
  ['/api/knowledge-base', 'knowledge'],
] as const)('%s', (path, space) => {
  it('creates an item at version 1 with a "Created" version, and lists it', async () => {
    const res = await call('POST', path, {
      ...base,
      excerpt: 'How we patch',
      category: 'Patching',
      tags: ['windows', 'patch'],
      isTemplate: true,
      templateType: 'maintenance',
      formModel: { kind: 'howto', purpose: 'x' },
    });
    expect(res.status).toBe(201);
    const item = await res.json();
    expect(item).toMatchObject({
      title: base.title,
      version: 1,
      category: 'Patching',
      tags: ['windows', 'patch'],
      isTemplate: true,
      templateType: 'maintenance',
      formModel: { kind: 'howto', purpose: 'x' },
      isPublished: false,
    });
    expect(item.author).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    const [row] = await t.db.select().from(documents).where(eq(documents.id, item.id));
    expect(row.space).toBe(space);
    const versions = await (await call('GET', `${path}/${item.id}/versions`)).json();
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({
      version: 1,
      changeLog: 'Created',
      title: base.title,
      content: base.content,
      authorName: 'Ada Lovelace',
    });
    const list = await (await call('GET', path)).json();
    expect(list.map((i: { id: string }) => i.id)).toContain(item.id);
    expect((await call('GET', `${path}/${item.id}`)).status).toBe(200);
  });

  it('updates: every update increments the version and writes a version row', async () => {
    const item = await (await call('POST', path, base)).json();
    const v2 = await (await call('PUT', `${path}/${item.id}`, { ...base, title: 'Second', version: 1 })).json();
    expect(v2.version).toBe(2);
    const v3 = await (await call('PUT', `${path}/${item.id}`, { ...base, title: 'Third' })).json();
    expect(v3.version).toBe(3);
    const versions = await (await call('GET', `${path}/${item.id}/versions`)).json();
    expect(versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
  });

  it('answers 409 to an update based on a stale version and changes nothing', async () => {
    const item = await (await call('POST', path, base)).json();
    await call('PUT', `${path}/${item.id}`, { ...base, title: 'Moved on', version: 1 });
    const res = await call('PUT', `${path}/${item.id}`, { ...base, title: 'Stale edit', version: 1 });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/changed by someone else/);
    const now = await (await call('GET', `${path}/${item.id}`)).json();
    expect(now).toMatchObject({ title: 'Moved on', version: 2 });
    expect(await t.db.select().from(documentVersions).where(eq(documentVersions.documentId, item.id))).toHaveLength(2);
  });

  it('restores a version as a NEW version and keeps every version', async () => {
    const item = await (await call('POST', path, { ...base, tags: ['one'], category: 'A' })).json();
    await call('PUT', `${path}/${item.id}`, {
      ...base,
      title: 'Changed',
      content: 'new',
      tags: ['two'],
      category: 'B',
    });
    const versions = await (await call('GET', `${path}/${item.id}/versions`)).json();
    const v1 = versions.find((v: { version: number }) => v.version === 1);
    const res = await call('POST', `${path}/${item.id}/restore/${v1.id}`);
    expect(res.status).toBe(200);
    const restored = await res.json();
    expect(restored).toMatchObject({
      title: base.title,
      content: base.content,
      tags: ['one'],
      category: 'A',
      version: 3,
    });
    const after = await (await call('GET', `${path}/${item.id}/versions`)).json();
    expect(after.map((v: { version: number; changeLog: string }) => [v.version, v.changeLog])).toEqual([
      [3, 'Restored from version 1'],
      [2, 'Changed title, content, category and tags'],
      [1, 'Created'],
    ]);
    expect(after[1]).toMatchObject({ title: 'Changed', content: 'new' });
    const stale = await call('POST', `${path}/${item.id}/restore/${v1.id}`, { version: 2 });
    expect(stale.status).toBe(409);
    expect((await stale.json()).message).toMatch(/changed by someone else/);
    expect(await (await call('GET', `${path}/${item.id}`)).json()).toMatchObject({
      title: base.title,
      content: base.content,
      tags: ['one'],
      category: 'A',
      version: 3,
    });
    expect(await (await call('GET', `${path}/${item.id}/versions`)).json()).toHaveLength(3);
    expect((await call('POST', `${path}/${item.id}/restore/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('soft-deletes with an audit event; the versions stay restorable for admins only', async () => {
    const item = await (await call('POST', path, base)).json();
    const res = await call('DELETE', `${path}/${item.id}`);
    expect(res.status).toBe(200);
    const [row] = await t.db.select().from(documents).where(eq(documents.id, item.id));
    expect(row.deletedAt).toBeInstanceOf(Date);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityId, item.id));
    const prefix = space === 'knowledge' ? 'knowledge' : 'document';
    expect(audits.map((a) => a.action).sort()).toEqual([`${prefix}.create`, `${prefix}.delete`]);
    expect(audits.find((a) => a.action === `${prefix}.delete`)?.actorId).toBe(user.id);
    expect((await call('GET', `${path}/${item.id}`)).status).toBe(404);
    expect((await (await call('GET', path)).json()).map((i: { id: string }) => i.id)).not.toContain(item.id);
    expect((await call('GET', `${path}/${item.id}/versions`)).status).toBe(404);
    expect((await call('DELETE', `${path}/${item.id}`)).status).toBe(404);
    const versions = await (await call('GET', `${path}/${item.id}/versions`, undefined, admin.cookie)).json();
    expect(versions).toHaveLength(1);
    expect((await call('POST', `${path}/${item.id}/restore/${versions[0].id}`)).status).toBe(404);
    const undeleted = await call('POST', `${path}/${item.id}/restore/${versions[0].id}`, undefined, admin.cookie);
    expect(undeleted.status).toBe(200);
    expect(await undeleted.json()).toMatchObject({ version: 2 });
    expect((await call('GET', `${path}/${item.id}`)).status).toBe(200);
  });

  it('filters the list by search text (title, content, tags) and category', async () => {
    const a = await (
      await call('POST', path, {
        title: 'Exchange mailbox move',
        content: 'x',
        category: 'Exchange Online',
        tags: ['mailbox'],
      })
    ).json();
    const b = await (
      await call('POST', path, { title: 'Other', content: 'contains the word zebrafish 100%', category: 'DNS' })
    ).json();
    const ids = async (qs: string) =>
      ((await (await call('GET', `${path}?${qs}`)).json()) as { id: string }[]).map((i) => i.id);
    expect(await ids('q=exchange')).toContain(a.id);
    expect(await ids('q=ZEBRAFISH')).toEqual([b.id]);
    expect(await ids('q=100%25')).toEqual([b.id]);
    expect(await ids('q=mailbox')).toContain(a.id);
    expect(await ids('category=DNS')).toEqual([b.id]);
  });

  it('refuses signed-out calls and unknown ids', async () => {
    expect((await t.app.request(path)).status).toBe(401);
    expect((await call('POST', path, base, '')).status).toBe(401);
    expect((await call('GET', `${path}/not-a-uuid`)).status).toBe(404);
    expect((await call('PUT', `${path}/00000000-0000-4000-8000-000000000000`, base)).status).toBe(404);
  });
});

describe('validation (spec §3/§5) → 400 with a message', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['title missing', { content: 'x' }, /Title is required/],
    ['title blank', { title: '  ', content: 'x' }, /Title is required/],
    ['title > 255', { title: 'x'.repeat(256), content: 'x' }, /255/],
    ['content missing', { title: 'x' }, /Content is required/],
    ['content blank', { title: 'x', content: '   ' }, /Content is required/],
    ['technology > 50', { ...base, technology: 'x'.repeat(51) }, /Technology must be at most 50/],
    ['domain > 20', { ...base, domain: 'x'.repeat(21) }, /Domain must be at most 20/],
    ['category > 100', { ...base, category: 'x'.repeat(101) }, /Category must be at most 100/],
    ['tags not a list', { ...base, tags: 'a,b' }, /Tags must be a list of text/],
    ['tags not text', { ...base, tags: [1, 2] }, /Tags must be a list of text/],
    ['unknown templateType', { ...base, templateType: 'pizza' }, /Template type/],
    ['isPublished not boolean', { ...base, isPublished: 'yes' }, /isPublished/],
    ['formModel not an object', { ...base, formModel: 'x' }, /formModel/],
    [
      'formModel of no known kind',
      { ...base, formModel: { purpose: 'x' } },
      /formModel\.kind must be "howto" or "build"/,
    ],
    ['formModel of an unknown kind', { ...base, formModel: { kind: 'pizza', steps: [] } }, /formModel\.kind must be/],
    [
      'formModel text not text',
      { ...base, formModel: { kind: 'howto', purpose: 5 } },
      /formModel\.purpose must be text/,
    ],
    ['formModel unknown field', { ...base, formModel: { kind: 'build', colour: 'red' } }, /unknown field "colour"/],
    [
      'formModel step not an object',
      { ...base, formModel: { kind: 'howto', steps: ['x'] } },
      /formModel\.steps\.0 must be/,
    ],
    [
      'formModel step field unknown',
      { ...base, formModel: { steps: [{ note: 'n' }] } },
      /steps\.0 has an unknown field/,
    ],
    [
      'formModel build actions not a list',
      { ...base, formModel: { kind: 'build', buildSteps: [{ actions: 'x' }] } },
      /formModel\.buildSteps\.0\.actions must be a list of text/,
    ],
    [
      'formModel tips not text',
      { ...base, formModel: { kind: 'howto', tips: [1] } },
      /formModel\.tips\.0 must be text/,
    ],
  ];
  it.each(cases)('%s', async (_name, body, message) => {
    for (const path of ['/api/documents', '/api/knowledge-base']) {
      const res = await call('POST', path, body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
  });

  it.each(cases)('%s on update: the item is unchanged', async (_name, body, message) => {
    for (const path of ['/api/documents', '/api/knowledge-base']) {
      const item = await (await call('POST', path, base)).json();
      const res = await call('PUT', `${path}/${item.id}`, { ...body, version: 1 });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(message);
      expect(await (await call('GET', `${path}/${item.id}`)).json()).toMatchObject({
        title: base.title,
        content: base.content,
        version: 1,
        tags: [],
        category: null,
      });
      expect(await t.db.select().from(documentVersions).where(eq(documentVersions.documentId, item.id))).toHaveLength(
        1,
      );
    }
  });

  it('accepts the boundaries and every templateType of the spec', async () => {
    for (const templateType of [
      'server_setup',
      'network_config',
      'security_audit',
      'maintenance',
      'troubleshooting',
      'work_instruction',
      'how_to_guide',
      'general',
      'build_document',
      null,
    ]) {
      const res = await call('POST', '/api/knowledge-base', {
        ...base,
        title: 'x'.repeat(255),
        technology: 't'.repeat(50),
        domain: 'd'.repeat(20),
        category: 'c'.repeat(100),
        templateType,
      });
      expect(res.status).toBe(201);
    }
  });
});

describe('GET /api/knowledge-base/recent', () => {
  it('answers the newest items with their author, limit 1–50', async () => {
    const res = await call('GET', '/api/knowledge-base/recent?limit=2');
    const items = await res.json();
    expect(items).toHaveLength(2);
    expect(items[0].author).toHaveProperty('email');
    expect(new Date(items[0].updatedAt) >= new Date(items[1].updatedAt)).toBe(true);
    expect((await call('GET', '/api/knowledge-base/recent')).status).toBe(200);
    expect((await call('GET', '/api/knowledge-base/recent?limit=0')).status).toBe(400);
    expect((await call('GET', '/api/knowledge-base/recent?limit=51')).status).toBe(400);
    expect((await t.app.request('/api/knowledge-base/recent')).status).toBe(401);
  });
});

describe('POST /api/markdown/render', () => {
  it('renders markdown as the server does, sanitised', async () => {
    const res = await call('POST', '/api/markdown/render', { content: '**bold** <script>alert(1)</script>' });
    expect(await res.json()).toEqual({ html: '<p><strong>bold</strong> </p>\n' });
    expect((await call('POST', '/api/markdown/render', { content: 1 })).status).toBe(400);
    expect((await t.app.request('/api/markdown/render', jsonRequest('POST', { content: 'x' }))).status).toBe(401);
  });
});

describe('formModel: the forms of the shared model are stored exactly as sent', () => {
  const howTo = {
    ...emptyHowTo(),
    purpose: 'Reset MFA',
    steps: [{ ...emptyHowTo().steps[0], title: 'Open the portal' }],
  };
  const build = {
    ...emptyBuild(),
    serverName: 'web01',
    buildSteps: [{ ...emptyBuild().buildSteps[0], actions: ['Install'] }],
  };
  // The spec's form fields without our `kind`: read as a how-to (steps) or a build document (buildSteps).
  const specHowTo = {
    purpose: 'p',
    steps: [{ title: 't', description: 'd', image: '', imageWidth: '300px', imageHeight: 'auto' }],
    tips: [],
  };
  const specBuild = { serverName: 's', buildSteps: [{ stepNumber: 1, title: 't', actions: [], screenshots: [] }] };
  it.each([
    ['a how-to guide', howTo],
    ['a build document', build],
    ['a how-to guide without kind', specHowTo],
    ['a build document without kind', specBuild],
  ])('%s', async (_name, formModel) => {
    for (const path of ['/api/documents', '/api/knowledge-base']) {
      const res = await call('POST', path, { ...base, formModel });
      expect(res.status).toBe(201);
      const item = await res.json();
      expect(item.formModel).toEqual(formModel);
      const updated = await call('PUT', `${path}/${item.id}`, { ...base, formModel: null, version: 1 });
      expect((await updated.json()).formModel).toBeNull();
    }
  });
});
