import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, offlineKeeps, serverDocuments, servers, teamMembers, userPreferences } from '../../src/db/schema';
import { createItem, deleteItem } from '../../src/knowledge/service';
import { KEEP_LIMIT } from '../../src/offline/service';
import { createTestApp, jsonRequest, TEST_ORIGIN, testBuildDir, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

// The offline pack's API (issue 25): Keep offline rows per user, and GET /api/me/offline listing what a user keeps:
// their own choices plus the runbooks linked to servers their team owns (their team: the department of their entry in
// the team directory), only items they may read.

let t: TestContext;
let admin: TestUser;
let viewer: TestUser;
let editor: TestUser;
let ops: TestUser;
const item: Record<string, string> = {};

interface Pack {
  userId: string;
  timeZone: string;
  items: { id: string; title: string; url: string; kept: boolean; servers: string[]; stamp: string; space: string }[];
  shell: string[];
}

const pack = async (user: TestUser): Promise<Pack> => {
  const res = await t.app.request('/api/me/offline', { headers: { Cookie: user.cookie } });
  expect(res.status).toBe(200);
  return res.json();
};
const titles = async (user: TestUser) => (await pack(user)).items.map((i) => i.title);
const keep = (user: TestUser, itemId: unknown) =>
  t.app.request('/api/me/offline', jsonRequest('POST', { itemId }, user.cookie));
const unkeep = (user: TestUser, itemId: string) =>
  t.app.request(`/api/me/offline/${itemId}`, jsonRequest('DELETE', undefined, user.cookie));

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  editor = await createSignedInUser(t.db, { role: 'editor', email: 'Eve.Editor@example.com' });
  ops = await createSignedInUser(t.db, { role: 'viewer' });
  const make = async (title: string, space: 'knowledge' | 'documents' = 'knowledge') =>
    (await createItem(t.db, space, { title, content: `${title}.` }, admin.id)).id;
  item.web = await make('Restart the web tier');
  item.db = await make('Fail over the database', 'documents');
  item.secret = await make('Web tier secrets');
  item.gone = await make('Old web notes');
  item.other = await make('Unlinked how-to');
  await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.secret));
  const [web1, db1] = await t.db
    .insert(servers)
    .values([
      { name: 'web1', teamOwner: ' Platform ' },
      { name: 'db1', teamOwner: 'Data' },
    ])
    .returning({ id: servers.id });
  await t.db.insert(serverDocuments).values([
    { serverId: web1.id, documentId: item.web },
    { serverId: web1.id, documentId: item.secret },
    { serverId: web1.id, documentId: item.gone },
    { serverId: db1.id, documentId: item.db },
  ]);
  await deleteItem(t.db, 'knowledge', item.gone, admin.id);
  // Teams come from the team directory (entry by the same e-mail, in any case); the viewer's timezone is UTC.
  await t.db.insert(userPreferences).values({ userId: viewer.id, timezone: 'UTC' });
  await t.db.insert(teamMembers).values([
    { name: 'Vic Viewer', email: viewer.email.toUpperCase(), role: 'Engineer', department: 'platform' },
    { name: 'Eve Editor', email: 'eve.editor@example.com', role: 'Engineer', department: 'Data' },
  ]);
});
afterAll(() => t.close());

describe('GET /api/me/offline', () => {
  it('needs a signed-in user and is never cached', async () => {
    expect((await t.app.request('/api/me/offline')).status).toBe(401);
    const res = await t.app.request('/api/me/offline', { headers: { Cookie: ops.cookie } });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ userId: ops.id, items: [] });
  });

  it("lists the runbooks of the servers the user's team owns (team directory department), readable ones only", async () => {
    const p = await pack(viewer);
    expect(p.userId).toBe(viewer.id);
    expect(p.timeZone).toBe('UTC');
    // The restricted item and the deleted one are left out; the database runbook is another team's.
    expect(p.items).toEqual([
      expect.objectContaining({
        id: item.web,
        title: 'Restart the web tier',
        url: `/knowledge-base/${item.web}/restart-the-web-tier`,
        kept: false,
        servers: ['web1'],
        space: 'knowledge',
      }),
    ]);
    // The shell the worker keeps with the pages: our own hashed files, icons and the manifest, nothing else.
    expect(p.shell).toEqual(expect.arrayContaining(['/static/favicon.svg', '/manifest.webmanifest']));
    expect(p.shell.every((u) => u.startsWith('/') && !u.startsWith('//'))).toBe(true);
  });

  it("takes the team from the user's entry in the team directory too (department, e-mail in any case)", async () => {
    expect(await titles(editor)).toEqual(['Fail over the database']);
  });

  it('an admin reads everything, so a restricted runbook of their team is in their pack', async () => {
    await t.db
      .insert(teamMembers)
      .values({ name: 'Ann Admin', email: admin.email, role: 'Lead', department: 'Platform' });
    expect(await titles(admin)).toEqual(['Restart the web tier', 'Web tier secrets']);
  });

  it('Settings › Health report covers (any user picks it) does not make a team; an inactive entry does not either', async () => {
    const picker = await createSignedInUser(t.db, { role: 'viewer' });
    await t.db.insert(userPreferences).values({ userId: picker.id, reportTeam: 'Platform' });
    expect(await titles(picker)).toEqual([]);
    const gone = await createSignedInUser(t.db, { role: 'viewer' });
    await t.db
      .insert(teamMembers)
      .values({ name: 'Gone', email: gone.email, role: 'Engineer', department: 'Platform', status: 'inactive' });
    expect(await titles(gone)).toEqual([]);
    const html = await (await t.app.request('/offline', { headers: { Cookie: picker.cookie } })).text();
    expect(html).toContain('the department of your entry in the team directory');
    expect(html).not.toContain('Health report covers');
  });

  it('changes its stamp when the item changes (the worker saves the page again)', async () => {
    const before = (await pack(viewer)).items[0].stamp;
    await t.db.update(documents).set({ version: 2, updatedAt: new Date() }).where(eq(documents.id, item.web));
    expect((await pack(viewer)).items[0].stamp).not.toBe(before);
  });
});

describe('POST /api/me/offline and DELETE /api/me/offline/{itemId}', () => {
  it('a viewer keeps an item they may read: 201, then 200 when kept already; the list shows it first', async () => {
    const first = await keep(viewer, item.other);
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ itemId: item.other, kept: true });
    expect((await keep(viewer, item.other)).status).toBe(200);
    const p = await pack(viewer);
    expect(p.items.map((i) => [i.title, i.kept])).toEqual([
      ['Unlinked how-to', true],
      ['Restart the web tier', false],
    ]);
    // Another user's pack is their own.
    expect(await titles(ops)).toEqual([]);
  });

  it('keeping a team runbook marks it kept (one entry, with its servers)', async () => {
    expect((await keep(viewer, item.web)).status).toBe(201);
    const web = (await pack(viewer)).items.find((i) => i.id === item.web);
    expect(web).toMatchObject({ kept: true, servers: ['web1'] });
  });

  it('refuses an item the user may not read, a deleted one, or none at all, as not found', async () => {
    for (const id of [item.secret, item.gone, '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d']) {
      const res = await keep(ops, id);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ message: 'That item does not exist or was deleted.' });
    }
    expect(await titles(ops)).toEqual([]);
  });

  it('answers bad input with 400 and a message, a signed-out visitor with 401', async () => {
    for (const body of ['nope', 42, null]) {
      const res = await keep(ops, body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/itemId/);
    }
    const bad = await t.app.request('/api/me/offline/not-an-id', jsonRequest('DELETE', undefined, ops.cookie));
    expect(bad.status).toBe(400);
    expect((await t.app.request('/api/me/offline', jsonRequest('POST', { itemId: item.web }))).status).toBe(401);
    expect((await t.app.request(`/api/me/offline/${item.web}`, jsonRequest('DELETE'))).status).toBe(401);
  });

  it('refuses a cross-site keep (CSRF)', async () => {
    const res = await t.app.request('/api/me/offline', {
      ...jsonRequest('POST', { itemId: item.web }, ops.cookie),
      headers: { Origin: 'https://evil.example', Cookie: ops.cookie, 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(403);
  });

  it('lets go of an item (idempotent); a team runbook stays in the pack, unkept', async () => {
    const res = await unkeep(viewer, item.other);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ itemId: item.other, kept: false });
    expect((await unkeep(viewer, item.other)).status).toBe(200);
    await unkeep(viewer, item.web);
    expect((await pack(viewer)).items.map((i) => [i.title, i.kept])).toEqual([['Restart the web tier', false]]);
  });

  it('an item that becomes unreadable leaves the pack (its row stays until let go)', async () => {
    const mine = await createItem(t.db, 'knowledge', { title: 'Shared notes', content: 'x' }, admin.id);
    await keep(ops, mine.id);
    expect(await titles(ops)).toEqual(['Shared notes']);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, mine.id));
    expect(await titles(ops)).toEqual([]);
  });

  it(`keeps at most ${KEEP_LIMIT} items a user chose (409 past it)`, async () => {
    const user = await createSignedInUser(t.db, { role: 'viewer' });
    const many = await t.db
      .insert(documents)
      .values(
        Array.from({ length: KEEP_LIMIT }, (_, i) => ({
          space: 'knowledge' as const,
          title: `Item ${i}`,
          content: '.',
        })),
      )
      .returning({ id: documents.id });
    await t.db.insert(offlineKeeps).values(many.map((d) => ({ userId: user.id, itemId: d.id })));
    const res = await keep(user, item.web);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'offline_limit' });
    // One kept already is still fine.
    expect((await keep(user, many[0].id)).status).toBe(200);
  });

  it('counts only live items the user may read against the limit (a deleted or closed one takes no room)', async () => {
    const user = await createSignedInUser(t.db, { role: 'viewer' });
    const many = await t.db
      .insert(documents)
      .values(
        Array.from({ length: KEEP_LIMIT }, (_, i) => ({
          space: 'knowledge' as const,
          title: `Kept ${i}`,
          content: '.',
        })),
      )
      .returning({ id: documents.id });
    await t.db.insert(offlineKeeps).values(many.map((d) => ({ userId: user.id, itemId: d.id })));
    expect((await keep(user, item.web)).status).toBe(409);
    // One kept item deleted, another closed to the user: two places free, then full again.
    await deleteItem(t.db, 'knowledge', many[0].id, admin.id);
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, many[1].id));
    expect((await keep(user, item.web)).status).toBe(201);
    expect((await keep(user, item.other)).status).toBe(201);
    const extra = await createItem(t.db, 'knowledge', { title: 'One too many', content: '.' }, admin.id);
    const res = await keep(user, extra.id);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'offline_limit' });
  });
});

describe('the read page and /offline (no JavaScript)', () => {
  const page = (user: TestUser, path: string) => t.app.request(path, { headers: { Cookie: user.cookie } });
  const form = (user: TestUser, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.request(path, {
      method: 'POST',
      headers: {
        Origin: TEST_ORIGIN,
        Cookie: user.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });

  it('shows Keep offline as a form; posting it keeps the item and comes back to the page', async () => {
    const before = await (await page(ops, `/knowledge-base/${item.other}`)).text();
    expect(before).toContain(`action="/knowledge-base/${item.other}/offline"`);
    expect(before).toMatch(/aria-pressed="false"[^>]*>Keep offline</);
    const res = await form(ops, `/knowledge-base/${item.other}/offline`, { keep: 'on' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/knowledge-base/${item.other}`);
    const after = await (await page(ops, `/knowledge-base/${item.other}`)).text();
    expect(after).toMatch(/aria-pressed="true"[^>]*>Keep offline</);
    expect(after).toContain('Kept offline');
  });

  it('answers htmx with the new button; says when the team keeps it', async () => {
    const res = await form(ops, `/knowledge-base/${item.other}/offline`, { keep: 'off' }, { 'HX-Request': 'true' });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/^<form id="offline-keep-form"/);
    expect(html).toContain('aria-pressed="false"');
    const team = await (await page(viewer, `/knowledge-base/${item.web}`)).text();
    expect(team).toContain('Kept offline: linked to a server your team owns');
  });

  it('refuses a form for an item of the other space or one the user may not read (404)', async () => {
    expect((await form(ops, `/documents/${item.other}/offline`, { keep: 'on' })).status).toBe(404);
    expect((await form(ops, `/knowledge-base/${item.secret}/offline`, { keep: 'on' })).status).toBe(404);
    expect((await form(ops, `/knowledge-base/${item.other}/offline`, { keep: 'maybe' })).status).toBe(400);
  });

  it('/offline lists the pack with a Remove button for kept items; Remove comes back to /offline', async () => {
    await keep(viewer, item.other);
    const html = await (await page(viewer, '/offline')).text();
    expect(html).toContain('Offline pack');
    expect(html).toContain('Unlinked how-to');
    expect(html).toContain('Restart the web tier');
    expect(html).toContain(`data-offline-saved="/knowledge-base/${item.web}"`);
    expect(html).toContain('Items linked to servers owned by Platform.');
    const res = await form(viewer, `/knowledge-base/${item.other}/offline`, { keep: 'off', back: 'offline' });
    expect(res.headers.get('location')).toBe('/offline');
    expect(await (await page(viewer, '/offline')).text()).not.toContain('Unlinked how-to');
  });

  it('signed-out visitors go to sign in', async () => {
    const res = await t.app.request('/offline');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?next=%2Foffline');
  });
});

describe('the service worker, the manifest and the shell', () => {
  it('serves /sw.js: JavaScript, scope no wider than /, revalidated, with the push and offline parts', async () => {
    const res = await t.app.request('/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('service-worker-allowed')).toBe('/');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const js = await res.text();
    expect(js).toContain('showNotification');
    expect(js).toContain('/api/me/offline');
    // The pages the worker writes itself (offline, refused, signed out) carry the app's own CSP, word for word.
    const csp = (await t.app.request('/login')).headers.get('content-security-policy')!;
    expect(js).toContain(`"${csp}"`);
    const again = await t.app.request('/sw.js', { headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('serves the web app manifest, linked from every page', async () => {
    const res = await t.app.request('/manifest.webmanifest');
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = await res.json();
    expect(manifest).toMatchObject({ name: 'Ops Hub', start_url: '/', scope: '/', display: 'standalone' });
    expect(manifest.icons[0].src).toBe('/static/favicon.svg');
    expect((await t.app.request(manifest.icons[0].src)).status).toBe(200);
    const html = await (await t.app.request('/login')).text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"/>');
  });

  it('registers the worker on signed-in pages (naming the user) only; signed-out pages ask it to empty the pack', async () => {
    const signedIn = await (await t.app.request('/offline', { headers: { Cookie: ops.cookie } })).text();
    // The user's id: the worker empties a pack of another user at once.
    expect(signedIn).toContain(`<meta name="offline-pack" content="${ops.id}"/>`);
    const signedOut = await (await t.app.request('/login')).text();
    expect(signedOut).toContain('<meta name="offline-pack" content="off"/>');
  });

  it('the CSP lets our own worker and manifest load and nothing else', async () => {
    const csp = (await t.app.request('/login')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });

  it('ships no worker code to pages: boot.js holds only the registration line (a few hundred bytes)', () => {
    const manifest = JSON.parse(readFileSync(path.join(testBuildDir, 'manifest.json'), 'utf8'));
    const meta = JSON.parse(readFileSync(path.join(testBuildDir, 'meta.json'), 'utf8'));
    const boot = readFileSync(path.join(testBuildDir, path.basename(manifest.boot)), 'utf8');
    expect(boot).toContain('/sw.js');
    expect(boot).not.toContain('opshub-offline-');
    const output = Object.values(
      meta.outputs as Record<string, { inputs: Record<string, { bytesInOutput: number }> }>,
    ).find((o) => Object.keys(o.inputs).some((i) => i.endsWith('src/client/boot.ts')))!;
    const registration = Object.entries(output.inputs).find(([i]) => i.endsWith('src/offline/browser.ts'))!;
    expect(registration[1].bytesInOutput).toBeLessThan(600);
  });
});
