import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, maintenanceWindows, servers } from '../../src/db/schema';
import { windowOpen } from '../../src/servers/maintenance-window';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { addServer } from './support';

/** Maintenance windows: the API (editors and admins), one-off and weekly windows open now, the page's forms. */
let t: TestContext;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;

const NOW = new Date('2026-11-27T10:00:00Z');
const hours = (h: number) => new Date(NOW.getTime() + h * 3_600_000);
const DAY = 24;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  editor = await createSignedInUser(t.db, { role: 'editor' });
  viewer = await createSignedInUser(t.db, { role: 'viewer' });
});
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});
afterEach(() => vi.setSystemTime(NOW));
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
});

const post = (body: unknown, cookie = editor.cookie) =>
  t.app.request('/api/admin/maintenance-windows', jsonRequest('POST', body, cookie));
const del = (id: string, cookie = editor.cookie) =>
  t.app.request(`/api/admin/maintenance-windows/${id}`, jsonRequest('DELETE', undefined, cookie));
const windowOf = async (id: string) =>
  (await t.db.select({ w: servers.maintenanceWindowId }).from(servers).where(eq(servers.id, id)))[0].w;

describe('the maintenance windows API', () => {
  it('a one-off window open now puts the listed servers in it at once; deleting it takes them out', async () => {
    const a = await addServer(t);
    const b = await addServer(t);
    const res = await post({
      name: 'Patch a',
      serverIds: [a.id],
      startsAt: hours(-1).toISOString(),
      endsAt: hours(1).toISOString(),
    });
    expect(res.status).toBe(201);
    const w = await res.json();
    expect(w).toMatchObject({ name: 'Patch a', serverIds: [a.id], environment: null, weekly: false, openNow: true });
    expect(await windowOf(a.id)).toBe(w.id);
    expect(await windowOf(b.id)).toBeNull();

    const list = await (
      await t.app.request('/api/admin/maintenance-windows', jsonRequest('GET', undefined, editor.cookie))
    ).json();
    expect(list.map((x: { id: string }) => x.id)).toContain(w.id);

    expect((await del(w.id)).status).toBe(204);
    expect(await windowOf(a.id)).toBeNull();
    expect((await del(w.id)).status).toBe(404);
    const events = await t.db.select().from(auditLog).where(eq(auditLog.entityId, w.id));
    expect(events.map((e) => [e.action, e.actorId])).toEqual([
      ['maintenance_window.created', editor.id],
      ['maintenance_window.deleted', editor.id],
    ]);
  });

  it('a weekly window matches the same stretch of later weeks; one-off windows only their own', async () => {
    const staging = await addServer(t, { environment: 'staging' });
    const prod = await addServer(t, { environment: 'production' });
    // Started a week and an hour ago, two hours long: open again now.
    const weekly = await (
      await post({
        name: 'Sunday patching',
        environment: 'staging',
        startsAt: hours(-7 * DAY - 1).toISOString(),
        endsAt: hours(-7 * DAY + 1).toISOString(),
        weekly: true,
      })
    ).json();
    expect(weekly.openNow).toBe(true);
    expect(await windowOf(staging.id)).toBe(weekly.id);
    expect(await windowOf(prod.id)).toBeNull();

    // The same stretch, one-off: over and done, nobody enters it.
    const past = await (
      await post({
        name: 'Last week',
        startsAt: hours(-7 * DAY - 1).toISOString(),
        endsAt: hours(-7 * DAY + 1).toISOString(),
      })
    ).json();
    expect(past.openNow).toBe(false);
    expect(await windowOf(prod.id)).toBeNull();

    const rule = { startsAt: hours(-7 * DAY - 1), endsAt: hours(-7 * DAY + 1), weekly: true };
    expect(windowOpen(rule, hours(0))).toBe(true);
    expect(windowOpen(rule, hours(2))).toBe(false);
    expect(windowOpen(rule, hours(7 * DAY))).toBe(true);
    expect(windowOpen({ ...rule, weekly: false }, hours(0))).toBe(false);
    expect(windowOpen({ ...rule, weekly: false }, hours(-7 * DAY))).toBe(true);

    // Later, the window's list shows it closed.
    vi.setSystemTime(hours(3));
    const list = await (
      await t.app.request('/api/admin/maintenance-windows', jsonRequest('GET', undefined, admin.cookie))
    ).json();
    expect(list.find((x: { id: string }) => x.id === weekly.id).openNow).toBe(false);
    await del(weekly.id);
    await del(past.id);
  });

  it('no servers and no environment: every server; a server already in a window stays in its own', async () => {
    const [first, second] = [await addServer(t), await addServer(t)];
    const one = await (
      await post({
        name: 'just first',
        serverIds: [first.id],
        startsAt: hours(-1).toISOString(),
        endsAt: hours(1).toISOString(),
      })
    ).json();
    const all = await (
      await post({ name: 'everything', startsAt: hours(0).toISOString(), endsAt: hours(2).toISOString() })
    ).json();
    expect(all.openNow).toBe(true);
    expect(await windowOf(first.id)).toBe(one.id);
    expect(await windowOf(second.id)).toBe(all.id);
    await del(all.id);
    await del(one.id);
    const left = await t.db
      .select()
      .from(servers)
      .where(inArray(servers.id, [first.id, second.id]));
    expect(left.map((s) => s.maintenanceWindowId)).toEqual([null, null]);
  });

  it.each([
    [{ name: 'x', startsAt: hours(1).toISOString(), endsAt: hours(0).toISOString() }, 'endsAt must be after startsAt.'],
    [
      { name: 'x', startsAt: hours(0).toISOString(), endsAt: hours(7 * DAY).toISOString(), weekly: true },
      'A weekly window must be shorter than a week.',
    ],
    [
      { name: 'x', startsAt: 'tomorrow', endsAt: hours(1).toISOString() },
      'startsAt must be a date and time (ISO 8601).',
    ],
    [{ name: 'x', startsAt: '1', endsAt: '2' }, 'startsAt must be a date and time (ISO 8601).'],
    [{ name: 'x', startsAt: hours(0).toISOString(), endsAt: '2' }, 'endsAt must be a date and time (ISO 8601).'],
    [
      { name: 'x', startsAt: '2026-02-30T10:00:00Z', endsAt: hours(1).toISOString() },
      'startsAt must be a date and time (ISO 8601).',
    ],
    [
      { name: 'x', startsAt: '2026-11-27T10:00:00', endsAt: hours(1).toISOString() },
      'startsAt must be a date and time (ISO 8601).',
    ],
    [
      { name: 'x', startsAt: '0001-01-01T00:00:00Z', endsAt: hours(1).toISOString() },
      'startsAt must be between 1970 and 9999.',
    ],
    [
      { name: 'x', startsAt: hours(0).toISOString(), endsAt: '+275760-09-13T00:00:00Z' },
      'endsAt must be a date and time (ISO 8601).',
    ],
    [{ name: 'x', startsAt: 1, endsAt: 2 }, 'startsAt must be a date and time (ISO 8601).'],
    [{ name: '', startsAt: hours(0).toISOString(), endsAt: hours(1).toISOString() }, 'name is required.'],
    [
      { name: 'x', environment: 'qa', startsAt: hours(0).toISOString(), endsAt: hours(1).toISOString() },
      'environment must be production, staging or development.',
    ],
    [
      {
        name: 'x',
        serverIds: ['00000000-0000-4000-8000-000000000000'],
        startsAt: hours(0).toISOString(),
        endsAt: hours(1).toISOString(),
      },
      'serverIds: 00000000-0000-4000-8000-000000000000 is not a server.',
    ],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(await t.db.select().from(maintenanceWindows).where(eq(maintenanceWindows.name, 'x'))).toEqual([]);
  });

  it('editors and admins only: a viewer gets 403, signed out 401', async () => {
    const body = { name: 'v', startsAt: hours(0).toISOString(), endsAt: hours(1).toISOString() };
    expect((await post(body, viewer.cookie)).status).toBe(403);
    expect(
      (await t.app.request('/api/admin/maintenance-windows', jsonRequest('GET', undefined, viewer.cookie))).status,
    ).toBe(403);
    expect((await t.app.request('/api/admin/maintenance-windows', jsonRequest('GET'))).status).toBe(401);
    const made = await post(body, admin.cookie);
    expect(made.status).toBe(201);
    await del((await made.json()).id, admin.cookie);
  });
});

describe('the maintenance windows page', () => {
  const form = (path: string, fields: [string, string][]) =>
    t.app.request(path, {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN, Cookie: editor.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  it('adds a window from wall-clock times in the user timezone, lists it, deletes it', async () => {
    const server = await addServer(t);
    // The editor's timezone is the default (Australia/Sydney, UTC+11 in November): 21:00 there is 10:00 UTC.
    const res = await form('/admin/maintenance-windows', [
      ['name', 'Form window'],
      ['serverIds', server.id],
      ['startsAt', '2026-11-27T20:30'],
      ['endsAt', '2026-11-27T22:00'],
    ]);
    expect(res.status).toBe(303);
    const [w] = await t.db.select().from(maintenanceWindows).where(eq(maintenanceWindows.name, 'Form window'));
    expect(w.startsAt).toEqual(new Date('2026-11-27T09:30:00Z'));
    expect(w.endsAt).toEqual(new Date('2026-11-27T11:00:00Z'));
    expect(await windowOf(server.id)).toBe(w.id);
    const page = await (
      await t.app.request('/admin/maintenance-windows', { headers: { Cookie: editor.cookie } })
    ).text();
    expect(page).toContain('Form window');
    expect(page).toContain('Open now');

    const bad = await form('/admin/maintenance-windows', [
      ['name', 'Backwards'],
      ['startsAt', '2026-11-27T22:00'],
      ['endsAt', '2026-11-27T20:00'],
    ]);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('endsAt must be after startsAt.');

    // Not dates at all, a day that does not exist, a year out of range: the form again with the error, never a 500.
    for (const [startsAt, endsAt, message] of [
      ['1', '2', 'startsAt must be a date and time (ISO 8601).'],
      ['2026-02-30T10:00', '2026-03-01T10:00', 'startsAt must be a date and time (ISO 8601).'],
      ['2026-11-27T25:00', '2026-11-28T10:00', 'startsAt must be a date and time (ISO 8601).'],
      ['0001-01-01T00:00', '2026-11-28T10:00', 'startsAt must be between 1970 and 9999.'],
    ]) {
      const wrong = await form('/admin/maintenance-windows', [
        ['name', 'Wrong dates'],
        ['startsAt', startsAt],
        ['endsAt', endsAt],
      ]);
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain(message);
    }
    expect(await t.db.select().from(maintenanceWindows).where(eq(maintenanceWindows.name, 'Wrong dates'))).toEqual([]);

    expect((await form(`/admin/maintenance-windows/${w.id}/delete`, [])).status).toBe(303);
    expect(await windowOf(server.id)).toBeNull();
  });
});
