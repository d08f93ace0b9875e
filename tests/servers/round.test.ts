import type { Server as NetServer } from 'node:net';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config';
import { queryRows } from '../../src/db/client';
import { healthChecks, mailOutbox, maintenanceWindows, servers } from '../../src/db/schema';
import { queueServerStatusMails } from '../../src/notifications/service';
import { claimUnannouncedChanges, probeServer } from '../../src/servers/health';
import { claimDue, ROUND_LEASE_MS, runRoundShare } from '../../src/servers/round';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser } from '../helpers/users';
import { closedPort, countingListener } from './loopback';

let t: TestContext;
let closed: number;
const listeners: NetServer[] = [];

/** A counting loopback listener, closed after the tests. */
async function countingPort(host?: string) {
  const listener = await countingListener(host);
  listeners.push(listener.server);
  return listener;
}

/** A clock the test moves by hand. */
function fakeClock(start = new Date('2026-03-02T10:00:00Z')) {
  let at = start.getTime();
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

const withHealth = (health: Partial<Config['health']>): Config => ({
  ...t.config,
  health: { ...t.config.health, ...health },
});

async function addServer(values: Partial<typeof servers.$inferInsert> & { name: string }) {
  const [row] = await t.db.insert(servers).values(values).returning();
  return row;
}

const serverRow = async (id: string) => (await t.db.select().from(servers).where(eq(servers.id, id)))[0];

beforeAll(async () => {
  t = await createTestApp();
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
});

describe('N consecutive failures (HEALTH_CHECK_FAILURES, default 2)', () => {
  it('one failed check leaves the server as it was; the second makes it offline; one success brings it back', async () => {
    const up = await countingPort('127.0.0.1');
    const clock = fakeClock();
    const s = await addServer({ name: 'n-fail', ipAddress: '127.0.0.1', monitorPort: closed, status: 'online' });
    expect(t.config.health.failures).toBe(2);

    const first = await probeServer(t.db, t.config, s.id, { now: clock.now });
    expect(first.server).toMatchObject({ status: 'online', consecutiveFailures: 1 });
    expect(first.change).toBeNull();
    expect(first.check).toMatchObject({ failed: true, error: 'connection refused' });

    clock.advance(60_000);
    const second = await probeServer(t.db, t.config, s.id, { now: clock.now });
    expect(second.server).toMatchObject({ status: 'offline', consecutiveFailures: 2 });
    expect(second.change).toMatchObject({ from: 'online', to: 'offline' });

    await t.db.update(servers).set({ monitorPort: up.port }).where(eq(servers.id, s.id));
    clock.advance(60_000);
    const back = await probeServer(t.db, t.config, s.id, { now: clock.now });
    expect(back.server).toMatchObject({ status: 'online', consecutiveFailures: 0 });
    expect(back.change).toMatchObject({ from: 'offline', to: 'online' });

    const rows = await t.db
      .select()
      .from(healthChecks)
      .where(eq(healthChecks.serverId, s.id))
      .orderBy(asc(healthChecks.checkedAt));
    // One row per probe, with each check's result; only the two real changes are to announce.
    expect(rows.map((r) => [r.previousStatus, r.status, r.unannounced])).toEqual([
      ['online', 'online', false],
      ['online', 'offline', true],
      ['offline', 'online', true],
    ]);
    expect(rows[0].results).toEqual([
      {
        checkId: null,
        kind: 'tcp',
        status: 'failing',
        latencyMs: null,
        error: 'connection refused',
        detail: expect.stringMatching(/^connect ECONNREFUSED 127\.0\.0\.1:\d+$/),
      },
    ]);
    expect(rows[0].error).toBe('connection refused');
  });

  it('a new server (unknown) stays unknown after its first failed check', async () => {
    const s = await addServer({ name: 'n-new', ipAddress: '127.0.0.1', monitorPort: closed });
    const r = await probeServer(t.db, t.config, s.id);
    expect(r.server).toMatchObject({ status: 'unknown', consecutiveFailures: 1 });
    expect((await probeServer(t.db, t.config, s.id)).server.status).toBe('offline');
  });

  it('counts failed rounds of every check of the server: any failing check fails the round', async () => {
    const up = await countingPort('127.0.0.1');
    const s = await addServer({ name: 'n-checks', ipAddress: '127.0.0.1', monitorPort: up.port, status: 'online' });
    await queryRows(
      t.db,
      sql`insert into server_checks (server_id, position, kind, target, port) values
          (${s.id}, 0, 'tcp', '127.0.0.1', ${up.port}), (${s.id}, 1, 'tcp', '127.0.0.1', ${closed})`,
    );
    const one = withHealth({ failures: 1 });
    const r = await probeServer(t.db, one, s.id);
    expect(r.server.status).toBe('offline');
    expect(r.results.map((x) => x.status)).toEqual(['ok', 'failing']);
    expect(up.accepted()).toBe(1);
    const rows = await t.db.select().from(healthChecks).where(eq(healthChecks.serverId, s.id));
    expect(rows).toHaveLength(1);
    // The latency is the first check's; the error the first failing check's.
    expect(rows[0].latencyMs).not.toBeNull();
    expect(rows[0].error).toBe('connection refused');
  });
});

describe('flapping (HEALTH_CHECK_FLAP_LIMIT)', () => {
  it('more than K changes in an hour are announced once as flapping, then the settled status once', async () => {
    const up = await countingPort('127.0.0.1');
    const clock = fakeClock();
    const config = withHealth({ failures: 1, flapLimit: 2 });
    const s = await addServer({ name: 'flappy', ipAddress: '127.0.0.1', monitorPort: up.port, status: 'online' });
    const flipTo = async (port: number) => {
      await t.db.update(servers).set({ monitorPort: port }).where(eq(servers.id, s.id));
      clock.advance(5 * 60_000);
      return probeServer(t.db, config, s.id, { now: clock.now });
    };
    const announced: (string | undefined)[] = [];
    for (const port of [closed, up.port, closed, up.port, closed]) {
      const r = await flipTo(port);
      announced.push(r.change ? `${r.change.to}${r.change.flapping ? ` (${r.change.flapping})` : ''}` : undefined);
    }
    // Changes 1 and 2 are announced; the third (K+1 = 3 in the hour) starts flapping, announced once; then quiet.
    expect(announced).toEqual(['offline', 'online', 'offline (started)', undefined, undefined]);
    const flapping = await serverRow(s.id);
    expect(flapping.status).toBe('offline');
    expect(flapping.flappingSince).not.toBeNull();
    const claimed = await t.db.transaction((tx) => claimUnannouncedChanges(tx));
    expect(claimed.map((c) => [c.from, c.to, c.flapping])).toEqual([
      ['online', 'offline', undefined],
      ['offline', 'online', undefined],
      ['online', 'offline', 'started'],
    ]);
    await createSignedInUser(t.db, { email: 'ops@example.com' });
    await queueServerStatusMails(t.db, t.config.appUrl, claimed);
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ops@example.com'));
    expect(mail.text).toContain('flappy (127.0.0.1, development) is flapping (now offline; ');

    // An hour later without a change: the hour's changes fell to the limit or below: the settled status, once.
    clock.advance(61 * 60_000);
    const settled = await probeServer(t.db, config, s.id, { now: clock.now });
    expect(settled.change).toMatchObject({ from: 'offline', to: 'offline', flapping: 'settled' });
    expect((await serverRow(s.id)).flappingSince).toBeNull();
    clock.advance(60_000);
    expect((await probeServer(t.db, config, s.id, { now: clock.now })).change).toBeNull();
    const after = await t.db.transaction((tx) => claimUnannouncedChanges(tx));
    expect(after.map((c) => [c.to, c.flapping])).toEqual([['offline', 'settled']]);
  });
});

describe('maintenance windows', () => {
  it('a change inside a window is stored, not announced, and the window is set on the server', async () => {
    const clock = fakeClock();
    const s = await addServer({ name: 'in-window', ipAddress: '127.0.0.1', monitorPort: closed, status: 'online' });
    const other = await addServer({
      name: 'not-in-window',
      ipAddress: '127.0.0.1',
      monitorPort: closed,
      status: 'online',
    });
    const [w] = await t.db
      .insert(maintenanceWindows)
      .values({
        name: 'Patch night',
        serverIds: [s.id],
        startsAt: new Date(clock.now().getTime() - 10 * 60_000),
        endsAt: new Date(clock.now().getTime() + 30 * 60_000),
      })
      .returning();
    for (let i = 0; i < 2; i++) {
      clock.advance(60_000);
      await probeServer(t.db, t.config, s.id, { now: clock.now });
      await probeServer(t.db, t.config, other.id, { now: clock.now });
    }
    const inside = await serverRow(s.id);
    expect(inside).toMatchObject({ status: 'offline', maintenanceWindowId: w.id });
    expect((await serverRow(other.id)).maintenanceWindowId).toBeNull();
    const stored = await t.db.select().from(healthChecks).where(eq(healthChecks.serverId, s.id));
    expect(stored.map((r) => r.status).sort()).toEqual(['offline', 'online']);
    expect(stored.every((r) => !r.unannounced)).toBe(true);
    const claimed = await t.db.transaction((tx) => claimUnannouncedChanges(tx));
    expect(claimed.map((c) => c.name)).toEqual(['not-in-window']);

    clock.advance(60 * 60_000); // the window has ended
    await probeServer(t.db, t.config, s.id, { now: clock.now });
    expect((await serverRow(s.id)).maintenanceWindowId).toBeNull();
  });
});

describe('a shared round', () => {
  const slot = new Date('2026-03-02T10:05:00Z');

  it('probes each due server exactly once (counted at the listeners), and again only in a newer round', async () => {
    const ports = [];
    for (let i = 0; i < 24; i++) ports.push(await countingPort(`127.0.0.${1 + (i % 3)}`));
    await t.db
      .insert(servers)
      .values(ports.map((p, i) => ({ name: `round-${i}`, ipAddress: `127.0.0.${1 + (i % 3)}`, monitorPort: p.port })));
    await addServer({ name: 'round-maint', ipAddress: '127.0.0.1', monitorPort: closed, status: 'maintenance' });
    const deps = { db: t.db, config: t.config };
    const share = await runRoundShare(deps, { slotAt: slot, workerId: 'w1', concurrency: 5 });
    expect(share).toMatchObject({ checked: 24, online: 24, stillClaimed: 0, left: 0 });
    expect(ports.map((p) => p.accepted())).toEqual(ports.map(() => 1));
    const [round] = await queryRows<{ due: number; finished: boolean }>(
      t.db,
      sql`select due, finished_at is not null as finished from health_rounds where slot_at = ${slot.toISOString()}::timestamptz`,
    );
    expect(round).toEqual({ due: 24, finished: true });

    // The same round again (another worker joining late) finds nothing due.
    expect((await runRoundShare(deps, { slotAt: slot, workerId: 'w2' })).checked).toBe(0);
    expect(ports.every((p) => p.accepted() === 1)).toBe(true);
    const next = new Date(slot.getTime() + 5 * 60_000);
    expect((await runRoundShare(deps, { slotAt: next, workerId: 'w2' })).checked).toBe(24);
    expect(ports.every((p) => p.accepted() === 2)).toBe(true);
  });

  it('skips servers an earlier round still holds, and takes over a dead worker’s claims after the lease', async () => {
    const ports = [];
    for (let i = 0; i < 10; i++) ports.push(await countingPort('127.0.0.1'));
    await t.db
      .insert(servers)
      .values(ports.map((p, i) => ({ name: `lease-${i}`, ipAddress: '127.0.0.1', monitorPort: p.port })));
    const clock = fakeClock(new Date(slot.getTime() + 1000));
    // A worker of the previous round claimed three servers, then died (its process stopped: nothing probes them).
    const earlier = new Date(slot.getTime() - 5 * 60_000);
    await queryRows(t.db, sql`insert into health_rounds (slot_at) values (${earlier.toISOString()}::timestamptz)`);
    const dead = await claimDue(t.db, {
      slotAt: earlier,
      workerId: 'dead-worker',
      limit: 3,
      now: new Date(clock.now().getTime() - 60_000),
      leaseMs: ROUND_LEASE_MS,
    });
    expect(dead).toHaveLength(3);

    const deps = { db: t.db, config: t.config };
    const share = await runRoundShare(deps, { slotAt: slot, workerId: 'alive', concurrency: 4, now: clock.now });
    expect(share).toMatchObject({ checked: 7, stillClaimed: 3 });
    expect(ports.map((p) => p.accepted()).reduce((a, b) => a + b)).toBe(7);

    // The lease ends: the live worker's next pass at the same round finishes the dead worker's servers, once.
    clock.advance(ROUND_LEASE_MS);
    const takeover = await runRoundShare(deps, { slotAt: slot, workerId: 'alive', now: clock.now });
    expect(takeover).toMatchObject({ checked: 3, stillClaimed: 0 });
    expect(ports.map((p) => p.accepted())).toEqual(ports.map(() => 1));
    const [left] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from health_schedule where round_at is distinct from ${slot.toISOString()}::timestamptz or lease_until is not null`,
    );
    expect(left.n).toBe(0);
  });
});
