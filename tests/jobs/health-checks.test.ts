import { createServer, type AddressInfo, type Server } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { auditLog, healthChecks, servers } from '../../src/db/schema';
import { createTestDatabase } from '../helpers/db';
import { testScheduler } from './support';

/** A TCP listener on a loopback address; returns its port. */
function listenOn(host: string): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(0, host, () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}

/** A port nothing listens on (opened, then closed). */
async function closedPort(host: string): Promise<number> {
  const { server, port } = await listenOn(host);
  await new Promise((r) => server.close(r));
  return port;
}

let database: Database;
const listeners: Server[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const l of listeners) l.close();
  await database.close();
});

describe('health-checks job', () => {
  it('probes real loopback listeners, writes history and audit-logs status changes; maintenance is left alone', async () => {
    const up1 = await listenOn('127.0.0.1');
    const up2 = await listenOn('127.0.0.2');
    listeners.push(up1.server, up2.server);
    const down = await closedPort('127.0.0.3');
    const db = database.db;
    await db.insert(servers).values([
      { name: 'web-up', ipAddress: '127.0.0.1', monitorPort: up1.port, status: 'offline' },
      { name: 'db-up-busy', ipAddress: '127.0.0.2', monitorPort: up2.port, status: 'online', diskUsage: 95 },
      { name: 'app-down', ipAddress: '127.0.0.3', monitorPort: down, status: 'online' },
      { name: 'app-down-already', ipAddress: '127.0.0.3', monitorPort: down, status: 'offline' },
      { name: 'in-maintenance', ipAddress: '127.0.0.3', monitorPort: down, status: 'maintenance' },
    ]);

    const outcome = await testScheduler(database).runNow('health-checks');
    expect(outcome.status).toBe('ok');
    expect(outcome.message).toMatch(
      /^Checked 4 servers in \d+ ms: 1 online, 1 warning, 2 offline\. 2 went offline or came back: e-mailed 0 users\.$/,
    );

    const rows = await db
      .select({ name: servers.name, status: servers.status, last: servers.lastHealthCheck })
      .from(servers)
      .orderBy(asc(servers.name));
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ['app-down', 'offline'],
      ['app-down-already', 'offline'],
      ['db-up-busy', 'warning'],
      ['in-maintenance', 'maintenance'],
      ['web-up', 'online'],
    ]);
    expect(rows.find((r) => r.name === 'in-maintenance')!.last).toBeNull();

    const history = await db
      .select({
        name: servers.name,
        status: healthChecks.status,
        previous: healthChecks.previousStatus,
        latency: healthChecks.latencyMs,
      })
      .from(healthChecks)
      .innerJoin(servers, eq(servers.id, healthChecks.serverId))
      .orderBy(asc(servers.name));
    expect(history.map((h) => [h.name, h.previous, h.status])).toEqual([
      ['app-down', 'online', 'offline'],
      ['app-down-already', 'offline', 'offline'],
      ['db-up-busy', 'online', 'warning'],
      ['web-up', 'offline', 'online'],
    ]);
    expect(history.find((h) => h.name === 'web-up')!.latency).not.toBeNull();

    const audit = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'server.status'));
    expect(audit.map((a) => (a.details as { from: string; to: string }).to).sort()).toEqual([
      'offline',
      'online',
      'warning',
    ]);
  });
});
