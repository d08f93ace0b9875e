import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/audit/service';
import { queryRows } from '../../src/db/client';
import { auditLog, userPreferences } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** GET /api/admin/audit: filters, the keyset walk, limits, 400s and who may read it (both databases). */

let t: TestContext;
let admin: TestUser;
let auditor: TestUser;

interface Page {
  events: { id: string; action: string; entityType: string; entityId: string | null; createdAt: string }[];
  nextCursor: string | null;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  auditor = await createSignedInUser(t.db, { role: 'auditor' });
  // Dates in the filters are days in the reader's timezone: UTC+9 here, so a UTC reading would differ.
  await t.db.insert(userPreferences).values({ userId: auditor.id, timezone: 'Asia/Tokyo' });
});
afterAll(() => t.close());

const get = (path: string, cookie = auditor.cookie) => t.app.request(path, jsonRequest('GET', undefined, cookie));

async function page(query: string, cookie = auditor.cookie): Promise<Page> {
  const res = await get(`/api/admin/audit?${query}`, cookie);
  expect(res.status).toBe(200);
  return res.json();
}

const actions = (p: Page) => p.events.map((e) => e.action);

describe('filters', () => {
  beforeAll(async () => {
    const at = (iso: string) => new Date(iso);
    await t.db.insert(auditLog).values([
      {
        actorId: admin.id,
        action: 'f.server',
        entityType: 'f-server',
        entityId: 's1',
        createdAt: at('2031-03-01T10:00:00Z'),
      },
      {
        actorId: admin.id,
        action: 'f.server',
        entityType: 'f-server',
        entityId: 's2',
        createdAt: at('2031-03-01T11:00:00Z'),
      },
      {
        actorId: auditor.id,
        action: 'f.item',
        entityType: 'f-item',
        entityId: 'i1',
        createdAt: at('2031-03-01T12:00:00Z'),
      },
      // 2031-05-02 01:00 in Tokyo (still 1 May in UTC) and 2031-05-03 00:30 in Tokyo.
      { action: 'f.tz', entityType: 'f-tz', entityId: 'in', createdAt: at('2031-05-01T16:00:00Z') },
      { action: 'f.tz', entityType: 'f-tz', entityId: 'after', createdAt: at('2031-05-02T15:30:00Z') },
      { action: 'f.tz', entityType: 'f-tz', entityId: 'before', createdAt: at('2031-05-01T14:59:59Z') },
    ]);
  });

  it('by actor (a user id): only that user’s events', async () => {
    const p = await page(`actor=${auditor.id}&entityType=f-item`);
    expect(actions(p)).toEqual(['f.item']);
    expect((await page(`actor=${admin.id}&action=f.item`)).events).toEqual([]);
    expect(actions(await page(`actor=${admin.id}&action=f.server`))).toEqual(['f.server', 'f.server']);
  });

  it('by action, entity type and entity id, newest first', async () => {
    const servers = await page('action=f.server');
    expect(servers.events.map((e) => e.entityId)).toEqual(['s2', 's1']);
    expect((await page('entityType=f-server&entityId=s1')).events.map((e) => e.entityId)).toEqual(['s1']);
    expect((await page('entityType=f-item')).events.map((e) => e.entityId)).toEqual(['i1']);
    expect((await page('entityId=nothing-like-this')).events).toEqual([]);
  });

  it('from/to as days in the reader’s timezone, both inclusive', async () => {
    const ids = async (q: string) => (await page(`entityType=f-tz&${q}`)).events.map((e) => e.entityId);
    expect(await ids('from=2031-05-02&to=2031-05-02')).toEqual(['in']);
    expect(await ids('from=2031-05-02')).toEqual(['after', 'in']);
    expect(await ids('to=2031-05-02')).toEqual(['in', 'before']);
    expect(await ids('from=2031-05-03&to=2031-05-03')).toEqual(['after']);
  });

  it('from/to as instants with an offset (to inclusive)', async () => {
    const ids = async (q: string) => (await page(`entityType=f-tz&${q}`)).events.map((e) => e.entityId);
    const from = encodeURIComponent('2031-05-01T16:00:00Z');
    const to = encodeURIComponent('2031-05-02T01:00:00+09:00');
    expect(await ids(`from=${from}&to=${to}`)).toEqual(['in']);
  });

  it('empty filter fields (a GET form sends them) mean no filter', async () => {
    const p = await page('actor=&action=f.server&entityType=&entityId=&from=&to=&cursor=');
    expect(p.events).toHaveLength(2);
  });

  it('answers the actor (null for the system) and the details', async () => {
    await recordAudit(t.db, { actorId: admin.id, action: 'f.details', entityType: 'f-d', details: { a: 1 } });
    const [event] = (await page('action=f.details')).events as unknown as {
      actor: { id: string; email: string };
      details: unknown;
    }[];
    expect(event.actor).toMatchObject({ id: admin.id, email: admin.email });
    expect(event.details).toEqual({ a: 1 });
    const [system] = (await page('entityType=f-tz&limit=1')).events as unknown as { actor: unknown }[];
    expect(system.actor).toBeNull();
  });
});

describe('keyset pages', () => {
  beforeAll(async () => {
    // 130 events in groups of 7 with the very same created_at; groups one microsecond apart (a JS Date cannot
    // tell them apart: the cursor must keep PostgreSQL's precision).
    await t.db.execute(sql`
      insert into audit_log (action, entity_type, entity_id, created_at)
      select 'walk.' || g, 'walk', (g % 3)::text, timestamptz '2032-01-01 00:00:00' + (g / 7) * interval '1 microsecond'
      from generate_series(1, 130) g`);
  });

  it('a walk by cursor equals the full (created_at desc, id desc) order: no duplicate, no gap', async () => {
    const expected = (
      await queryRows<{ id: string }>(
        t.db,
        sql`select id from audit_log where entity_type = 'walk' order by created_at desc, id desc`,
      )
    ).map((r) => r.id);
    for (const limit of [1, 7, 10, 50]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const p: Page = await page(`entityType=walk&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(p.events.length).toBeLessThanOrEqual(limit);
        seen.push(...p.events.map((e) => e.id));
        cursor = p.nextCursor;
        pages++;
      } while (cursor);
      expect(seen).toEqual(expected);
      expect(pages).toBe(Math.ceil(130 / limit));
    }
  });

  it('keeps the filters along the walk', async () => {
    const first = await page('entityType=walk&entityId=1&limit=30');
    const second = await page(`entityType=walk&entityId=1&limit=30&cursor=${first.nextCursor}`);
    const all = [...first.events, ...second.events];
    expect(all).toHaveLength(44); // g % 3 = 1 for 44 of 1..130
    expect(all.every((e) => e.entityId === '1')).toBe(true);
    expect(second.nextCursor).toBeNull();
  });

  it('limit: 50 by default, at most 200', async () => {
    const byDefault = await page('entityType=walk');
    expect(byDefault.events).toHaveLength(50);
    expect(byDefault.nextCursor).toEqual(expect.any(String));
    expect((await page('entityType=walk&limit=200')).events).toHaveLength(130);
    expect((await page('entityType=walk&limit=200')).nextCursor).toBeNull();
  });
});

describe('bad input is 400 { message }', () => {
  it.each([
    ['limit=201', 'limit'],
    ['limit=0', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=not-ours', 'cursor'],
    [`cursor=${Buffer.from('2031-01-01T00:00:00.000000Z|x').toString('base64url')}`, 'cursor'],
    [`cursor=${Buffer.from('yesterday|00000000-0000-0000-0000-000000000000').toString('base64url')}`, 'cursor'],
    // Shaped right but not a real instant (Date would roll 31 February over; PostgreSQL refuses it): 400, not 500.
    [
      `cursor=${Buffer.from('2026-02-31T00:00:00.000000Z|00000000-0000-0000-0000-000000000000').toString('base64url')}`,
      'cursor',
    ],
    [
      `cursor=${Buffer.from('0000-01-01T00:00:00.000000Z|00000000-0000-0000-0000-000000000000').toString('base64url')}`,
      'cursor',
    ],
    ['from=2026-01-01T10:00%2B23:59', 'from'],
    ['from=2031-02-30', 'from'],
    ['from=yesterday', 'from'],
    ['to=2031-13-01', 'to'],
    ['to=2031-01-01T25:00:00Z', 'to'],
    ['actor=not-a-uuid', 'actor'],
    [`action=${'a'.repeat(101)}`, 'action'],
  ])('%s', async (query, field) => {
    const res = await get(`/api/admin/audit?${query}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toContain(field);
    expect((await get(`/api/admin/audit.csv?${query}`)).status).toBe(
      query.startsWith('limit') || query.startsWith('cursor') ? 200 : 400,
    );
  });
});

describe('who may read the audit trail', () => {
  it('admins and auditors: 200; editors and viewers: 403; signed out: 401 (JSON and CSV)', async () => {
    const editor = await createSignedInUser(t.db, { role: 'editor' });
    const viewer = await createSignedInUser(t.db, { role: 'viewer' });
    for (const path of ['/api/admin/audit', '/api/admin/audit.csv']) {
      expect((await get(path, admin.cookie)).status).toBe(200);
      expect((await get(path, auditor.cookie)).status).toBe(200);
      expect((await get(path, editor.cookie)).status).toBe(403);
      expect((await get(path, viewer.cookie)).status).toBe(403);
      expect((await t.app.request(path)).status).toBe(401);
    }
  });
});
