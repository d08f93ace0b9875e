import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, healthChecks, servers } from '../../src/db/schema';
import { probeServer, isNotableChange } from '../../src/servers/health';
import { runRoundShare } from '../../src/servers/round';
import { probeTcp } from '../../src/servers/probe';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
let listener: NetServer;
let openPort: number;
let closedPort: number;
let accepted = 0;

/** A port that was just free on 127.0.0.1 (nothing listens there now). */
async function closedLoopbackPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function addServer(values: Partial<typeof servers.$inferInsert> & { name: string }) {
  const [row] = await t.db.insert(servers).values(values).returning();
  return row;
}

beforeAll(async () => {
  // These tests are about one probe's outcome: offline after one failed round.
  t = await createTestApp({ HEALTH_CHECK_FAILURES: '1' });
  user = await createSignedInUser(t.db);
  listener = createServer((socket) => {
    accepted++;
    socket.end();
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  openPort = (listener.address() as AddressInfo).port;
  closedPort = await closedLoopbackPort();
});
afterAll(async () => {
  await new Promise<void>((r) => listener.close(() => r()));
  await t.close();
});

describe('probeTcp', () => {
  it('reaches a listening loopback port and reports its latency', async () => {
    const before = accepted;
    const r = await probeTcp('127.0.0.1', openPort, 3000);
    expect(r).toMatchObject({ reachable: true, error: null });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    await new Promise((r2) => setTimeout(r2, 50));
    expect(accepted).toBe(before + 1);
  });

  it('reports a closed loopback port as unreachable with the reason', async () => {
    const r = await probeTcp('127.0.0.1', closedPort, 3000);
    expect(r.reachable).toBe(false);
    expect(r.error).toBe('connection refused');
  });
});

describe('probeServer', () => {
  it('marks a reachable server online, stores the check and stamps lastHealthCheck', async () => {
    const row = await addServer({ name: 'probe-open', ipAddress: '127.0.0.1', monitorPort: openPort });
    const s = (await probeServer(t.db, t.config, row.id, { actorId: user.id })).server;
    expect(s.status).toBe('online');
    expect(s.lastHealthCheck).not.toBeNull();
    const checks = await t.db.select().from(healthChecks).where(eq(healthChecks.serverId, row.id));
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ status: 'online', previousStatus: 'unknown', error: null });
    expect(checks[0].latencyMs).not.toBeNull();
    const [after] = await t.db.select().from(servers).where(eq(servers.id, row.id));
    expect(after.statusChangedAt).not.toBeNull();
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityId, row.id));
    expect(audits.map((a) => a.action)).toContain('server.status');
  });

  it('uses the hostname when there is no IP address', async () => {
    const row = await addServer({ name: 'probe-host', hostname: '127.0.0.1', monitorPort: openPort });
    expect((await probeServer(t.db, t.config, row.id)).server.status).toBe('online');
  });

  it('marks a reachable but busy server (last usage ≥ 90%) as warning', async () => {
    const row = await addServer({ name: 'probe-busy', ipAddress: '127.0.0.1', monitorPort: openPort, diskUsage: 90 });
    expect((await probeServer(t.db, t.config, row.id)).server.status).toBe('warning');
  });

  it('marks an unreachable server offline with the error, and does not audit an unchanged status', async () => {
    const row = await addServer({ name: 'probe-closed', ipAddress: '127.0.0.1', monitorPort: closedPort });
    const first = (await probeServer(t.db, t.config, row.id)).server;
    expect(first.status).toBe('offline');
    await probeServer(t.db, t.config, row.id);
    const checks = await t.db.select().from(healthChecks).where(eq(healthChecks.serverId, row.id));
    expect(checks.map((c) => c.status)).toEqual(['offline', 'offline']);
    expect(checks.every((c) => c.latencyMs === null && c.error === 'connection refused')).toBe(true);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityId, row.id));
    expect(audits.filter((a) => a.action === 'server.status')).toHaveLength(1);
  });

  it('stores a change to announce as unannounced, with the status, and an unchanged or minor one as not', async () => {
    const down = await addServer({
      name: 'probe-unannounced',
      ipAddress: '127.0.0.1',
      monitorPort: closedPort,
      status: 'online',
    });
    const busy = await addServer({
      name: 'probe-minor',
      ipAddress: '127.0.0.1',
      monitorPort: openPort,
      status: 'online',
      cpuUsage: 95,
    });
    await probeServer(t.db, t.config, down.id);
    await probeServer(t.db, t.config, down.id);
    await probeServer(t.db, t.config, busy.id);
    const checks = await t.db
      .select({
        serverId: healthChecks.serverId,
        previous: healthChecks.previousStatus,
        unannounced: healthChecks.unannounced,
      })
      .from(healthChecks)
      .where(inArray(healthChecks.serverId, [down.id, busy.id]))
      .orderBy(asc(healthChecks.checkedAt));
    expect(checks.map((c) => [c.serverId === down.id ? 'down' : 'busy', c.previous, c.unannounced])).toEqual([
      ['down', 'online', true],
      ['down', 'offline', false],
      ['busy', 'online', false],
    ]);
  });

  it('two checks of one server at once store one change, not two', async () => {
    const row = await addServer({
      name: 'probe-twice',
      ipAddress: '127.0.0.1',
      monitorPort: closedPort,
      status: 'online',
    });
    await Promise.all([probeServer(t.db, t.config, row.id), probeServer(t.db, t.config, row.id)]);
    const checks = await t.db.select().from(healthChecks).where(eq(healthChecks.serverId, row.id));
    expect(checks.map((c) => `${c.previousStatus}→${c.status}`).sort()).toEqual(['offline→offline', 'online→offline']);
    expect(checks.filter((c) => c.unannounced)).toHaveLength(1);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityId, row.id));
    expect(audits.filter((a) => a.action === 'server.status')).toHaveLength(1);
  });

  it('does not probe servers in maintenance', async () => {
    const row = await addServer({
      name: 'probe-maint',
      ipAddress: '127.0.0.1',
      monitorPort: closedPort,
      status: 'maintenance',
    });
    expect((await probeServer(t.db, t.config, row.id)).server.status).toBe('maintenance');
    expect(await t.db.select().from(healthChecks).where(eq(healthChecks.serverId, row.id))).toEqual([]);
  });

  it('POST /api/servers/{id}/health-check answers the updated server', async () => {
    const row = await addServer({ name: 'probe-api', ipAddress: '127.0.0.1', monitorPort: openPort });
    const res = await t.app.request(`/api/servers/${row.id}/health-check`, jsonRequest('POST', undefined, user.cookie));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ id: row.id, status: 'online', monitorPort: openPort });
    expect(body.lastHealthCheck).toMatch(/Z$/);
    expect((await t.app.request(`/api/servers/${row.id}/health-check`, jsonRequest('POST'))).status).toBe(401);
    expect(
      (
        await t.app.request(
          '/api/servers/00000000-0000-4000-8000-000000000000/health-check',
          jsonRequest('POST', undefined, user.cookie),
        )
      ).status,
    ).toBe(404);
  });
});

describe('runRoundShare (one worker)', () => {
  it('checks every server not in maintenance with bounded concurrency and sums the outcome', async () => {
    await t.db.delete(servers);
    for (let i = 0; i < 5; i++)
      await addServer({ name: `all-open-${i}`, ipAddress: `127.0.0.1`, monitorPort: openPort });
    await addServer({ name: 'all-busy', ipAddress: '127.0.0.1', monitorPort: openPort, cpuUsage: 95 });
    for (let i = 0; i < 3; i++)
      await addServer({ name: `all-closed-${i}`, ipAddress: '127.0.0.1', monitorPort: closedPort });
    await addServer({ name: 'all-maint', ipAddress: '127.0.0.1', monitorPort: openPort, status: 'maintenance' });
    const summary = await runRoundShare(t.deps, { slotAt: new Date(), workerId: 'test', concurrency: 3 });
    expect(summary).toMatchObject({ checked: 9, online: 5, warning: 1, offline: 3 });
    expect(summary.durationMs).toBeGreaterThanOrEqual(0);
    const rows = await t.db.select().from(servers);
    expect(rows.find((r) => r.name === 'all-maint')?.lastHealthCheck).toBeNull();
    // New servers (unknown) found down are news; found up are not.
    expect(summary.changes.map((c) => [c.name, c.from, c.to]).sort()).toEqual([
      ['all-closed-0', 'unknown', 'offline'],
      ['all-closed-1', 'unknown', 'offline'],
      ['all-closed-2', 'unknown', 'offline'],
    ]);
  });

  it('lists the servers that went offline or came back, each with the check that saw it', async () => {
    await t.db.delete(servers);
    const down = await addServer({
      name: 'chg-down',
      ipAddress: '127.0.0.1',
      monitorPort: closedPort,
      status: 'warning',
      environment: 'production',
    });
    await addServer({
      name: 'chg-back',
      ipAddress: '127.0.0.1',
      monitorPort: openPort,
      status: 'offline',
      cpuUsage: 95,
    });
    await addServer({ name: 'chg-same', ipAddress: '127.0.0.1', monitorPort: closedPort, status: 'offline' });
    await addServer({
      name: 'chg-busy',
      ipAddress: '127.0.0.1',
      monitorPort: openPort,
      status: 'online',
      cpuUsage: 95,
    });
    const { changes } = await runRoundShare(t.deps, { slotAt: new Date(), workerId: 'test' });
    expect(changes.map((c) => [c.name, c.from, c.to]).sort()).toEqual([
      ['chg-back', 'offline', 'warning'],
      ['chg-down', 'warning', 'offline'],
    ]);
    const c = changes.find((x) => x.name === 'chg-down')!;
    expect(c).toMatchObject({ serverId: down.id, address: '127.0.0.1', environment: 'production' });
    const [check] = await t.db.select().from(healthChecks).where(eq(healthChecks.id, c.checkId));
    expect(check).toMatchObject({ serverId: down.id, status: 'offline', previousStatus: 'warning' });
    expect(check.checkedAt.getTime()).toBe(c.at.getTime());
  });

  it('isNotableChange: offline from anything, or online/warning from offline', () => {
    expect(isNotableChange('online', 'offline')).toBe(true);
    expect(isNotableChange('unknown', 'offline')).toBe(true);
    expect(isNotableChange('offline', 'online')).toBe(true);
    expect(isNotableChange('offline', 'warning')).toBe(true);
    expect(isNotableChange('offline', 'offline')).toBe(false);
    expect(isNotableChange('online', 'warning')).toBe(false);
    expect(isNotableChange('unknown', 'online')).toBe(false);
  });
});
