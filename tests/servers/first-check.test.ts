import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthChecks } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { closedPort, openPort, silentPort } from './loopback';

let t: TestContext;
let user: TestUser;
let open: Awaited<ReturnType<typeof openPort>>;
let refused: number;

async function call(method: string, path: string, body?: unknown) {
  const res = await t.app.request(path, jsonRequest(method, body, user.cookie));
  return { status: res.status, body: await res.json() };
}
const checksOf = (serverId: string) => t.db.select().from(healthChecks).where(eq(healthChecks.serverId, serverId));

async function waitForCheck(serverId: string, withinMs: number) {
  const until = Date.now() + withinMs;
  for (;;) {
    const rows = await checksOf(serverId);
    if (rows.length || Date.now() > until) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  // About the first check itself: one failed check makes the new server offline here.
  t = await createTestApp({ HEALTH_CHECK_FAILURES: '1' });
  user = await createSignedInUser(t.db);
  open = await openPort();
  refused = await closedPort();
});
afterAll(async () => {
  await open.close();
  await t.close();
});

describe('a new server is checked once when it is added', () => {
  it('answers 201 with what the first probe found when it answers quickly (reachable → online)', async () => {
    const { status, body } = await call('POST', '/api/servers', {
      name: 'first-up',
      ipAddress: '127.0.0.1',
      monitorPort: open.port,
    });
    expect(status).toBe(201);
    expect(body.status).toBe('online');
    expect(body.lastHealthCheck).not.toBeNull();
    const checks = await checksOf(body.id);
    expect(checks.map((c) => [c.status, c.previousStatus, c.error])).toEqual([['online', 'unknown', null]]);
  });

  it('stores a refused probe as offline with the probe’s error text', async () => {
    const { status, body } = await call('POST', '/api/servers', {
      name: 'first-down',
      ipAddress: '127.0.0.1',
      monitorPort: refused,
    });
    expect(status).toBe(201);
    expect(body.status).toBe('offline');
    expect((await checksOf(body.id)).map((c) => c.error)).toEqual(['connection refused']);
  });

  it('does not hold the answer for a probe that hangs: 201 at once, the check stored when the probe times out', async () => {
    const silent = await silentPort();
    try {
      const started = performance.now();
      const { status, body } = await call('POST', '/api/servers', {
        name: 'first-silent',
        ipAddress: '127.0.0.1',
        monitorPort: silent.port,
      });
      const tookMs = performance.now() - started;
      expect(status).toBe(201);
      expect(tookMs).toBeLessThan(2500); // the probe's own timeout is 3000 ms
      expect(body).toMatchObject({ status: 'unknown', lastHealthCheck: null });
      expect(await checksOf(body.id)).toEqual([]);
      const checks = await waitForCheck(body.id, 6000);
      expect(checks.map((c) => [c.status, c.error])).toEqual([['offline', 'Timed out after 3000 ms']]);
    } finally {
      silent.close();
    }
  }, 15_000);
});

describe('Check now answers what the probe found', () => {
  it('answers the stored server and the check: status, latency, the probe’s error text', async () => {
    const up = (
      await call('POST', '/api/servers', { name: 'check-up', ipAddress: '127.0.0.1', monitorPort: open.port })
    ).body;
    const checked = await call('POST', `/api/servers/${up.id}/health-check`);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ id: up.id, name: 'check-up', status: 'online' });
    expect(checked.body.check).toMatchObject({ status: 'online', error: null });
    expect(checked.body.check.latencyMs).toBeGreaterThanOrEqual(0);

    await call('PUT', `/api/servers/${up.id}`, { name: 'check-up', ipAddress: '127.0.0.1', monitorPort: refused });
    const down = await call('POST', `/api/servers/${up.id}/health-check`);
    expect(down.body.status).toBe('offline');
    expect(down.body.check).toEqual({
      status: 'offline',
      latencyMs: null,
      error: 'connection refused',
      failed: true,
      consecutiveFailures: 1,
      failuresToOffline: 1,
    });
  });

  it('says a server in maintenance was not probed (check null), at creation and on Check now', async () => {
    const { status, body } = await call('POST', '/api/servers', {
      name: 'check-maintenance',
      ipAddress: '127.0.0.1',
      monitorPort: open.port,
      status: 'maintenance',
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ status: 'maintenance', lastHealthCheck: null });
    const checked = await call('POST', `/api/servers/${body.id}/health-check`);
    expect(checked.body).toMatchObject({ status: 'maintenance', lastHealthCheck: null, check: null });
    expect(await checksOf(body.id)).toEqual([]);
  });
});
