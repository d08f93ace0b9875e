import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/audit/service';
import { auditLog, documents } from '../../src/db/schema';
import { createItem } from '../../src/knowledge/service';
import { itemHref } from '../../src/knowledge/shared';
import { createServer } from '../../src/servers/service';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/**
 * Each item's and server's Activity: its audit events, newest first, keyset-paged. An item's for whoever may read
 * the item (404 otherwise, like the item); a server's for anyone signed in; the details for admins and auditors only.
 */

let t: TestContext;
let owner: TestUser;
let other: TestUser;
let viewer: TestUser;
let auditor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createSignedInUser(t.db, { role: 'editor', firstName: 'Olga', lastName: 'Owner' });
  other = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
  auditor = await createSignedInUser(t.db, { role: 'auditor' });
});
afterAll(() => t.close());

const get = async (path: string, cookie: string, status = 200) => {
  const res = await t.app.request(path, { headers: { Cookie: cookie } });
  expect(res.status).toBe(status);
  return res.text();
};

describe('an item’s Activity', () => {
  it('lists the item’s events, newest first, to its readers; details only for admins and auditors', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Patch night', content: 'Steps.' }, owner.id);
    const elsewhere = await createItem(t.db, 'knowledge', { title: 'Elsewhere', content: 'x' }, owner.id);
    await recordAudit(t.db, {
      actorId: owner.id,
      action: 'knowledge.first',
      entityType: 'knowledge_item',
      entityId: item.id,
      details: { secret: 'only-for-auditors' },
    });
    // A second later, explicitly: two events in the same microsecond would be ordered by their random ids.
    await t.db.insert(auditLog).values({
      actorId: owner.id,
      action: 'knowledge.second',
      entityType: 'knowledge_item',
      entityId: item.id,
      createdAt: new Date(Date.now() + 1000),
    });
    await recordAudit(t.db, {
      actorId: owner.id,
      action: 'knowledge.other',
      entityType: 'knowledge_item',
      entityId: elsewhere.id,
    });

    const page = await get(`/knowledge-base/${item.id}/activity`, viewer.cookie);
    expect(page).toContain('Olga Owner');
    expect(page.indexOf('knowledge.second')).toBeLessThan(page.indexOf('knowledge.first'));
    expect(page).not.toContain('knowledge.other');
    expect(page).not.toContain('only-for-auditors');
    expect(page).toContain(`href="${itemHref('knowledge', item.id, item.title)}"`);
    expect(await get(`/knowledge-base/${item.id}/activity`, auditor.cookie)).toContain('only-for-auditors');
  });

  it('is 404 for whoever may not read a restricted item, and for an unknown or deleted one', async () => {
    const item = await createItem(t.db, 'documents', { title: 'Private runbook', content: 'x' }, owner.id);
    await recordAudit(t.db, {
      actorId: owner.id,
      action: 'document.secret',
      entityType: 'document',
      entityId: item.id,
    });
    await t.db.update(documents).set({ visibility: 'restricted' }).where(eq(documents.id, item.id));
    expect(await get(`/documents/${item.id}/activity`, owner.cookie)).toContain('document.secret');
    expect(await get(`/documents/${item.id}/activity`, other.cookie, 404)).not.toContain('document.secret');
    expect(await get(`/documents/${item.id}/activity`, viewer.cookie, 404)).not.toContain('document.secret');
    await get('/documents/00000000-0000-4000-8000-000000000000/activity', owner.cookie, 404);
    // The knowledge base's path does not show a document.
    await get(`/knowledge-base/${item.id}/activity`, owner.cookie, 404);
    await t.db.update(documents).set({ deletedAt: new Date() }).where(eq(documents.id, item.id));
    await get(`/documents/${item.id}/activity`, owner.cookie, 404);
  });

  it('pages with an Older link (keyset), and refuses a bad cursor with 400; signed out goes to sign in', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Busy item', content: 'x' }, owner.id);
    await t.db.execute(sql`
      insert into audit_log (action, entity_type, entity_id, created_at)
      select 'busy.' || g, 'knowledge_item', ${item.id}, timestamptz '2036-01-01' + g * interval '1 second'
      from generate_series(1, 60) g`);
    const first = await get(`/knowledge-base/${item.id}/activity`, viewer.cookie);
    expect(first).toContain('busy.60');
    expect(first).not.toContain('busy.10<');
    const older = first.match(/href="([^"]*\/activity\?cursor=[^"]+)"/)?.[1];
    expect(older).toBeDefined();
    const second = await get(older!.replaceAll('&amp;', '&'), viewer.cookie);
    expect(second).toContain('busy.10<');
    expect(second).not.toContain('busy.11<');
    await get(`/knowledge-base/${item.id}/activity?cursor=nope`, viewer.cookie, 400);
    const signedOut = await t.app.request(`/knowledge-base/${item.id}/activity`);
    expect([302, 303, 401]).toContain(signedOut.status);
  });

  it('lists the item’s own create, update and comment events, each recorded by the change itself', async () => {
    const json = (method: string, path: string, body: unknown) =>
      t.app.request(path, {
        method,
        headers: { Cookie: owner.cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await json('POST', '/api/knowledge-base', { title: 'Audited item', content: 'One.' });
    expect(created.status).toBe(201);
    const item = (await created.json()) as { id: string; version: number };
    const updated = await json('PUT', `/api/knowledge-base/${item.id}`, {
      title: 'Audited item',
      content: 'Two.',
      version: item.version,
    });
    expect(updated.status).toBe(200);
    expect((await json('POST', `/api/knowledge-base/${item.id}/comments`, { body: 'Looks right.' })).status).toBe(201);
    const page = await get(`/knowledge-base/${item.id}/activity`, viewer.cookie);
    const at = (action: string) => page.indexOf(`>${action}<`);
    expect(at('comment.created')).toBeGreaterThan(-1);
    expect(at('knowledge.update')).toBeGreaterThan(at('comment.created'));
    expect(at('knowledge.create')).toBeGreaterThan(at('knowledge.update'));
  });

  it('is linked from the item’s read page', async () => {
    const item = await createItem(t.db, 'knowledge', { title: 'Linked', content: 'x' }, owner.id);
    const page = await get(itemHref('knowledge', item.id, item.title), viewer.cookie);
    expect(page).toContain(`href="/knowledge-base/${item.id}/activity"`);
  });
});

describe('a server’s Activity', () => {
  it('lists the server’s events for anyone signed in, linked from the server page; 404 for an unknown server', async () => {
    const server = await createServer(t.db, { name: 'act-01' } as never, owner.id);
    const page = await get(`/infrastructure/${server.id}/activity`, viewer.cookie);
    expect(page).toContain('server.create');
    expect(page).toContain('Olga Owner');
    expect(page).not.toContain('act-01</td>'); // details (the name) are for admins and auditors
    expect(await get(`/infrastructure/${server.id}/activity`, auditor.cookie)).toContain('name: act-01');
    expect(await get(`/infrastructure/${server.id}`, viewer.cookie)).toContain(
      `href="/infrastructure/${server.id}/activity"`,
    );
    await get('/infrastructure/00000000-0000-4000-8000-000000000000/activity', viewer.cookie, 404);
    await get('/infrastructure/not-an-id/activity', viewer.cookie, 404);
  });
});
