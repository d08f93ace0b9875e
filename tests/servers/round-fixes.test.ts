import type { Server as NetServer } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config';
import { queryRows } from '../../src/db/client';
import { healthChecks, maintenanceWindows, servers } from '../../src/db/schema';
import { runJobNow } from '../../src/jobs/runner';
import { claimUnannouncedChanges, loadOpenWindows, probeServer } from '../../src/servers/health';
import { checkAll } from '../../src/servers/commands';
import { claimDue, ROUND_LEASE_MS, runRoundShare } from '../../src/servers/round';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { closedPort, countingListener } from './loopback';

let t: TestContext;
let admin: TestUser;
let closed: number;
const listeners: NetServer[] = [];

/** A counting loopback listener, closed after the tests. */
async function countingPort(host?: string) {
  const listener = await countingListener(host);
  listeners.push(listener.server);
  return listener;
}

function fakeClock(start: Date) {
  let at = start.getTime();
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

const withHealth = (health: Partial<Config['health']>): Config => ({
  ...t.config,
  health: { ...t.config.health, ...health },
});
const oneFailure = () => withHealth({ failures: 1 });

async function addServer(values: Partial<typeof servers.$inferInsert> & { name: string }) {
  const [row] = await t.db.insert(servers).values(values).returning();
  return row;
}
const serverRow = async (id: string) => (await t.db.select().from(servers).where(eq(servers.id, id)))[0];

async function addWindow(serverIds: string[], startsAt: Date, endsAt: Date) {
  const [w] = await t.db
    .insert(maintenanceWindows)
    .values({ name: 'Patch night', serverIds, startsAt, endsAt })
    .returning();
  return w;
}

const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const scheduleOf = async (id: string) =>
  (
    await queryRows<{ round_at: Date | string | null; lease_until: unknown; claimed_by: string | null }>(
      t.db,
      sql`select round_at, lease_until, claimed_by from health_schedule where server_id = ${id}::uuid`,
    )
  )[0];
const roundCount = async () =>
  (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from health_rounds`))[0].n;
const probedFor = async (slot: Date) =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from health_schedule where round_at = ${iso(slot)}`,
    )
  )[0].n;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.db, { role: 'admin' });
  closed = await closedPort();
});
afterAll(async () => {
  for (const l of listeners) l.close();
  await t.close();
});
beforeEach(async () => {
  await t.db.delete(servers);
  await t.db.delete(maintenanceWindows);
  await queryRows(t.db, sql`delete from health_rounds`);
  await queryRows(t.db, sql`delete from job_runs`);
});

describe('maintenance windows that change during a round', () => {
  it('a window deleted after the round loaded it: the probe stores no window id (no foreign-key error)', async () => {
    const now = new Date();
    const s = await addServer({ name: 'w-del', ipAddress: '127.0.0.1', monitorPort: closed, status: 'online' });
    const w = await addWindow([s.id], new Date(now.getTime() - 60_000), new Date(now.getTime() + 3_600_000));
    await t.db.update(servers).set({ maintenanceWindowId: w.id }).where(eq(servers.id, s.id));
    const stale = await loadOpenWindows(t.db, now);
    await t.db.delete(maintenanceWindows).where(eq(maintenanceWindows.id, w.id));

    const r = await probeServer(t.db, t.config, s.id, { windows: stale, now: () => now });
    expect(r.check).toMatchObject({ failed: true });
    expect((await serverRow(s.id)).maintenanceWindowId).toBeNull();
  });

  it('a window created after the round loaded the windows: the server stays in it, its change not announced', async () => {
    const now = new Date();
    const s = await addServer({ name: 'w-new', ipAddress: '127.0.0.1', monitorPort: closed, status: 'online' });
    const stale = await loadOpenWindows(t.db, now);
    // What creating a window open now does: the servers it covers are put in it at once.
    const w = await addWindow([s.id], new Date(now.getTime() - 1000), new Date(now.getTime() + 3_600_000));
    await t.db.update(servers).set({ maintenanceWindowId: w.id }).where(eq(servers.id, s.id));

    const r = await probeServer(t.db, oneFailure(), s.id, { windows: stale, now: () => now });
    expect(r.server).toMatchObject({ status: 'offline', maintenanceWindowId: w.id });
    expect(r.change).toBeNull();
    const [check] = await t.db.select().from(healthChecks).where(eq(healthChecks.serverId, s.id));
    expect(check.unannounced).toBe(false);
  });

  it('one server whose result cannot be stored does not end the round: the others are checked', async () => {
    const ports = await Promise.all([1, 2, 3, 4].map(() => countingPort()));
    await t.db
      .insert(servers)
      .values(ports.map((p, i) => ({ name: `err-${i}`, ipAddress: '127.0.0.1', monitorPort: p.port })));
    const bad = await addServer({ name: 'err-bad', ipAddress: '127.0.0.1', monitorPort: closed });
    // A server whose health_checks rows the database refuses (a stand-in for any error of one server).
    await queryRows(
      t.db,
      sql.raw(`create or replace function refuse_err_bad() returns trigger language plpgsql as $$
        begin if new.server_id = '${bad.id}' then raise exception 'refused for this test'; end if; return new; end $$`),
    );
    await queryRows(
      t.db,
      sql.raw(
        'create trigger refuse_err_bad before insert on health_checks for each row execute function refuse_err_bad()',
      ),
    );
    try {
      const slot = new Date('2026-03-02T10:05:00Z');
      const share = await runRoundShare(
        { db: t.db, config: t.config },
        { slotAt: slot, workerId: 'w', concurrency: 1 },
      );
      expect(share).toMatchObject({ checked: 4, errors: 1, firstError: expect.stringContaining('refused') });
      expect(ports.map((p) => p.accepted())).toEqual([1, 1, 1, 1]);
      // Left for the next round, not claimed any longer.
      expect(await scheduleOf(bad.id)).toMatchObject({ lease_until: null, claimed_by: null });
    } finally {
      await queryRows(t.db, sql.raw('drop trigger refuse_err_bad on health_checks'));
      await queryRows(t.db, sql.raw('drop function refuse_err_bad()'));
    }
  });
});

describe('a window that ends', () => {
  it('announces a server that went offline inside it and is still offline, once; not one that came back or was offline before', async () => {
    const up = await countingPort();
    const clock = fakeClock(new Date('2026-03-02T10:00:00Z'));
    const config = oneFailure();
    const downInside = await addServer({
      name: 'down-inside',
      ipAddress: '127.0.0.1',
      monitorPort: up.port,
      status: 'online',
    });
    const backInside = await addServer({
      name: 'back-inside',
      ipAddress: '127.0.0.1',
      monitorPort: up.port,
      status: 'online',
    });
    const downBefore = await addServer({
      name: 'down-before',
      ipAddress: '127.0.0.1',
      monitorPort: closed,
      status: 'offline',
      statusChangedAt: new Date(clock.now().getTime() - 3_600_000),
    });
    const ids = [downInside.id, backInside.id, downBefore.id];
    await addWindow(ids, new Date(clock.now().getTime() + 60_000), new Date(clock.now().getTime() + 30 * 60_000));
    const probeAll = async () => {
      for (const id of ids) await probeServer(t.db, config, id, { now: clock.now });
    };
    clock.advance(2 * 60_000); // inside the window
    await t.db.update(servers).set({ monitorPort: closed }).where(eq(servers.id, downInside.id));
    await t.db.update(servers).set({ monitorPort: closed }).where(eq(servers.id, backInside.id));
    await probeAll();
    await t.db.update(servers).set({ monitorPort: up.port }).where(eq(servers.id, backInside.id));
    clock.advance(5 * 60_000);
    await probeAll();
    expect((await serverRow(downInside.id)).status).toBe('offline');
    expect((await serverRow(backInside.id)).status).toBe('online');
    expect(await t.db.transaction((tx) => claimUnannouncedChanges(tx))).toEqual([]);

    clock.advance(30 * 60_000); // the window has ended
    await probeAll();
    const announced = await t.db.transaction((tx) => claimUnannouncedChanges(tx));
    expect(announced.map((c) => [c.name, c.to, c.flapping])).toEqual([['down-inside', 'offline', undefined]]);
    expect((await serverRow(downInside.id)).maintenanceWindowId).toBeNull();
    clock.advance(5 * 60_000);
    await probeAll();
    expect(await t.db.transaction((tx) => claimUnannouncedChanges(tx))).toEqual([]);
  });
});

describe('a window deleted while it holds an offline server', () => {
  it('announces the server that went offline inside it, once, and not one offline from before', async () => {
    const config = oneFailure();
    const up = await countingPort();
    const downInside = await addServer({ name: 'del-inside', ipAddress: '127.0.0.1', monitorPort: up.port });
    const downBefore = await addServer({
      name: 'del-before',
      ipAddress: '127.0.0.1',
      monitorPort: closed,
      status: 'offline',
      statusChangedAt: new Date(Date.now() - 3_600_000),
    });
    const w = await addWindow(
      [downInside.id, downBefore.id],
      new Date(Date.now() - 60_000),
      new Date(Date.now() + 3_600_000),
    );
    await t.db.update(servers).set({ monitorPort: closed }).where(eq(servers.id, downInside.id));
    for (const id of [downInside.id, downBefore.id]) await probeServer(t.db, config, id);
    expect((await serverRow(downInside.id)).maintenanceWindowId).toBe(w.id);
    expect((await serverRow(downInside.id)).status).toBe('offline');
    expect(await t.db.transaction((tx) => claimUnannouncedChanges(tx))).toEqual([]);

    const res = await t.app.request(
      `/api/admin/maintenance-windows/${w.id}`,
      jsonRequest('DELETE', undefined, admin.cookie),
    );
    expect(res.status).toBe(204);
    const announced = await t.db.transaction((tx) => claimUnannouncedChanges(tx));
    expect(announced.map((c) => [c.name, c.to])).toEqual([['del-inside', 'offline']]);
    // The next probe finds it offline, out of any window: nothing more to announce.
    await probeServer(t.db, config, downInside.id);
    expect(await t.db.transaction((tx) => claimUnannouncedChanges(tx))).toEqual([]);
  });
});

describe('rounds started while another runs', () => {
  const slot = new Date('2026-03-02T10:05:00Z');

  async function seed(n: number) {
    const ports = await Promise.all(Array.from({ length: n }, () => countingPort()));
    const rows = await t.db
      .insert(servers)
      .values(ports.map((p, i) => ({ name: `r-${i}`, ipAddress: '127.0.0.1', monitorPort: p.port })))
      .returning();
    return { ports, rows };
  }

  it('a share whose round was overtaken by a newer one joins it instead of stopping', async () => {
    const { ports } = await seed(4);
    const newer = new Date(slot.getTime() + 5 * 60_000);
    await queryRows(t.db, sql`insert into health_rounds (slot_at) values (${iso(newer)})`);
    const share = await runRoundShare({ db: t.db, config: t.config }, { slotAt: slot, workerId: 'late' });
    expect(share).toMatchObject({ checked: 4, joinedNewer: true, slotAt: newer });
    expect(ports.map((p) => p.accepted())).toEqual([1, 1, 1, 1]);
    expect(await probedFor(newer)).toBe(4);
  });

  it('a slot in the future (a worker clock ahead) is clamped to the database clock', async () => {
    await seed(2);
    const ahead = new Date(Date.now() + 3_600_000);
    const share = await runRoundShare({ db: t.db, config: t.config }, { slotAt: ahead, workerId: 'fast-clock' });
    expect(share.checked).toBe(2);
    expect(share.slotAt.getTime()).toBeLessThanOrEqual(Date.now());
    const [row] = await queryRows<{ future: number }>(
      t.db,
      sql`select count(*)::int as future from health_rounds where slot_at > now()`,
    );
    expect(row.future).toBe(0);
  });

  /** A round another worker is in: it holds two servers (lease valid), three are still due. */
  async function roundUnderWay() {
    const seeded = await seed(5);
    await queryRows(t.db, sql`insert into health_rounds (slot_at) values (${iso(slot)})`);
    const held = await claimDue(t.db, {
      slotAt: slot,
      workerId: 'worker-1',
      limit: 2,
      now: new Date(),
      leaseMs: ROUND_LEASE_MS,
    });
    expect(held).toHaveLength(2);
    return { ...seeded, held };
  }

  it('Run Health Check during a round joins it: no new round, it probes what is left, the lease-held servers stay', async () => {
    const { ports, held } = await roundUnderWay();
    const r = await checkAll(t.deps);
    expect(r).toMatchObject({ joined: true, checked: 3 });
    expect(r.slotAt.getTime()).toBe(slot.getTime());
    expect(await roundCount()).toBe(1);
    expect(ports.map((p) => p.accepted()).reduce((a, b) => a + b)).toBe(3);
    for (const id of held) expect(await scheduleOf(id)).toMatchObject({ claimed_by: 'worker-1' });

    // The dashboard's button now: still the same round; it answers what the round found so far.
    const res = await t.app.request('/dashboard/health-check', {
      method: 'POST',
      headers: { Cookie: admin.cookie, Origin: 'http://localhost:3000', 'HX-Request': 'true' },
    });
    expect(res.status).toBe(200);
    const toast = JSON.parse(res.headers.get('HX-Trigger')!).showToast;
    expect(toast).toMatchObject({
      title: 'Health Check Complete',
      text: 'Checked 3 servers: 3 online, 0 warning, 0 offline.',
    });
    expect(await roundCount()).toBe(1);
    expect(ports.map((p) => p.accepted()).reduce((a, b) => a + b)).toBe(3);
  });

  it('"Run now" on /admin/jobs during a round joins it instead of starting another full round', async () => {
    const { ports } = await roundUnderWay();
    const outcome = await runJobNow(t.deps, 'health-checks', admin.id);
    expect(outcome).toMatchObject({
      status: 'ok',
      message: expect.stringMatching(/^Checked 3 servers .* Took part in the round of 2026-03-02T10:05:00.000Z/),
    });
    expect(await roundCount()).toBe(1);
    expect(ports.map((p) => p.accepted()).reduce((a, b) => a + b)).toBe(3);
  });

  it('a finished round: Run Health Check starts a new one', async () => {
    await seed(2);
    await runRoundShare({ db: t.db, config: t.config }, { slotAt: slot, workerId: 'w' });
    const r = await checkAll(t.deps);
    expect(r).toMatchObject({ joined: false, checked: 2 });
    expect(await roundCount()).toBe(2);
  });
});

describe('a scheduled share waits for servers others hold', () => {
  const slot = new Date('2026-03-02T10:05:00Z');

  it('takes over a dead worker’s claims of the same round when their lease ends, in the same run', async () => {
    const ports = await Promise.all(Array.from({ length: 10 }, () => countingPort()));
    await t.db
      .insert(servers)
      .values(ports.map((p, i) => ({ name: `lease-${i}`, ipAddress: '127.0.0.1', monitorPort: p.port })));
    const clock = fakeClock(new Date(slot.getTime() + 1000));
    await queryRows(t.db, sql`insert into health_rounds (slot_at) values (${iso(slot)})`);
    const dead = await claimDue(t.db, {
      slotAt: slot,
      workerId: 'dead',
      limit: 3,
      now: clock.now(),
      leaseMs: ROUND_LEASE_MS,
    });
    expect(dead).toHaveLength(3);
    const waits: number[] = [];
    const share = await runRoundShare(
      { db: t.db, config: t.config },
      {
        slotAt: slot,
        workerId: 'alive',
        // One lane: the fake clock jumps while it waits, which must not run out its own claims under way.
        concurrency: 1,
        now: clock.now,
        waitForOthers: true,
        sleep: async (ms) => {
          waits.push(ms);
          clock.advance(ms);
        },
      },
    );
    expect(share.checked).toBe(10);
    expect(ports.map((p) => p.accepted())).toEqual(ports.map(() => 1));
    expect(await probedFor(slot)).toBe(10);
    // It waited (in steps) until the lease ended, no longer than the lease.
    const waited = waits.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(ROUND_LEASE_MS - 1000);
    expect(waited).toBeLessThanOrEqual(ROUND_LEASE_MS + 1000);
  });

  it('stops waiting when the shutdown signal comes, and when nobody else holds anything', async () => {
    await t.db.insert(servers).values({ name: 'held', ipAddress: '127.0.0.1', monitorPort: closed });
    await queryRows(t.db, sql`insert into health_rounds (slot_at) values (${iso(slot)})`);
    const clock = fakeClock(new Date(slot.getTime() + 1000));
    await claimDue(t.db, { slotAt: slot, workerId: 'other', limit: 1, now: clock.now(), leaseMs: ROUND_LEASE_MS });
    const stop = new AbortController();
    let slept = 0;
    const share = await runRoundShare(
      { db: t.db, config: t.config },
      {
        slotAt: slot,
        workerId: 'alive',
        now: clock.now,
        waitForOthers: true,
        signal: stop.signal,
        sleep: async () => {
          slept++;
          stop.abort();
        },
      },
    );
    // It waited for the other worker's claim, then the signal ended the wait (and the share).
    expect(slept).toBe(1);
    expect(share.checked).toBe(0);
    // Without waitForOthers (a share by hand) it does not wait at all.
    const byHand = await runRoundShare(
      { db: t.db, config: t.config },
      { slotAt: slot, workerId: 'hand', now: clock.now, sleep: () => Promise.reject(new Error('no wait expected')) },
    );
    expect(byHand.checked).toBe(0);
  });
});

describe('claims and manual changes', () => {
  const slot = new Date('2026-03-02T10:05:00Z');

  it('a server set to maintenance between claim and probe loses its lease', async () => {
    const s = await addServer({ name: 'to-maint', ipAddress: '127.0.0.1', monitorPort: closed });
    await claimDue(t.db, { slotAt: slot, workerId: 'w', limit: 1, now: new Date(), leaseMs: ROUND_LEASE_MS });
    await t.db.update(servers).set({ status: 'maintenance' }).where(eq(servers.id, s.id));
    const row = await serverRow(s.id);
    const r = await probeServer(t.db, t.config, s.id, {
      preloaded: { row, specs: [] },
      round: { slotAt: slot, workerId: 'w' },
    });
    expect(r.check).toBeNull();
    expect(await scheduleOf(s.id)).toMatchObject({ lease_until: null, claimed_by: null });
  });

  it('a probe marks only its own worker’s claim, and never moves round_at back', async () => {
    const up = await countingPort();
    const s = await addServer({ name: 'mine', ipAddress: '127.0.0.1', monitorPort: up.port });
    await claimDue(t.db, { slotAt: slot, workerId: 'taker', limit: 1, now: new Date(), leaseMs: ROUND_LEASE_MS });
    // A worker whose lease ran out (the claim is the taker's now) finishes its probe late.
    await probeServer(t.db, t.config, s.id, { round: { slotAt: slot, workerId: 'late' } });
    expect(await scheduleOf(s.id)).toMatchObject({ round_at: null, claimed_by: 'taker' });

    const newer = new Date(slot.getTime() + 5 * 60_000);
    await queryRows(
      t.db,
      sql`update health_schedule set round_at = ${iso(newer)}, claimed_by = 'old-round', lease_until = now()
          where server_id = ${s.id}::uuid`,
    );
    await probeServer(t.db, t.config, s.id, { round: { slotAt: slot, workerId: 'old-round' } });
    const after = await scheduleOf(s.id);
    expect(new Date(after.round_at!).getTime()).toBe(newer.getTime());
    expect(after.claimed_by).toBeNull();
  });

  it('a status set by hand (PUT /api/servers/{id}) starts the failure count afresh', async () => {
    const s = await addServer({ name: 'by-hand', status: 'online', consecutiveFailures: 1 });
    const res = await t.app.request(
      `/api/servers/${s.id}`,
      jsonRequest('PUT', { name: 'by-hand', status: 'offline' }, admin.cookie),
    );
    expect(res.status).toBe(200);
    expect(await serverRow(s.id)).toMatchObject({ status: 'offline', consecutiveFailures: 0 });
  });
});
