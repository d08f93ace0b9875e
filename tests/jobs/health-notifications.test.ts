import { createServer, type AddressInfo, type Server } from 'node:net';
import { count, eq, isNull, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client';
import { mailOutbox, servers, userPreferences, users } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { queueServerStatusMails } from '../../src/notifications/service';
import { announceStatusChanges } from '../../src/servers/commands';
import { probeServer } from '../../src/servers/health';
import { runRoundShare } from '../../src/servers/round';
import { formatDateTime } from '../../src/ui/shared';
import { probeTcp } from '../../src/servers/probe';
import { createTestDatabase, usingPostgres } from '../helpers/db';
import { createSignedInUser } from '../helpers/users';
import { silentPort } from '../servers/loopback';
import { jobsConfig, secondWorkerDatabase, testScheduler, waitFor } from './support';

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
let up: Server;
const statusMails = (to?: string) =>
  database.db
    .select()
    .from(mailOutbox)
    .where(to ? eq(mailOutbox.to, to) : like(mailOutbox.dedupeKey, 'server-status:%'));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  up?.close();
  await database.close();
});

describe('health-check round → e-mail notifications', () => {
  it('e-mails each opted-in active user once per round, listing who went offline and who came back, in their timezone', async () => {
    const db = database.db;
    await createSignedInUser(db, { email: 'ada@example.com', firstName: 'Ada' });
    const dee = await createSignedInUser(db, { email: 'dee@example.com', firstName: 'Dee' });
    await db.insert(userPreferences).values({ userId: dee.id, timezone: 'UTC' });
    const bob = await createSignedInUser(db, { email: 'bob@example.com' });
    await db.insert(userPreferences).values({ userId: bob.id, emailNotifications: false });
    await db.insert(users).values({ email: 'pending@example.com', accountStatus: 'pending_approval' });

    const listener = await listenOn('127.0.0.5');
    up = listener.server;
    const closed = await listenOn('127.0.0.6');
    await new Promise((r) => closed.server.close(r));
    const [down, back] = await db
      .insert(servers)
      .values([
        {
          name: 'web-down',
          ipAddress: '127.0.0.6',
          monitorPort: closed.port,
          status: 'online',
          environment: 'production',
        },
        {
          name: 'db-back',
          ipAddress: '127.0.0.5',
          monitorPort: listener.port,
          status: 'offline',
          environment: 'staging',
        },
        { name: 'still-down', ipAddress: '127.0.0.6', monitorPort: closed.port, status: 'offline' },
        { name: 'still-up', ipAddress: '127.0.0.5', monitorPort: listener.port, status: 'online' },
      ])
      .returning();

    const config = jobsConfig();
    const outcome = await testScheduler(database, { config }).runNow('health-checks');
    expect(outcome.message).toMatch(/2 went offline or came back: e-mailed 2 users\.$/);

    const mails = await statusMails();
    expect(mails.map((m) => m.to).sort()).toEqual(['ada@example.com', 'dee@example.com']);
    const mail = mails.find((m) => m.to === 'ada@example.com')!;
    expect(mail.subject).toBe('Ops Hub: 1 server offline, 1 back online');
    expect(mail.text).toContain('Hello Ada,');
    expect(mail.text).toContain('web-down (127.0.0.6, production) went offline at ');
    expect(mail.text).toContain('db-back (127.0.0.5, staging) is back online at ');
    expect(mail.text).not.toContain('still-');
    for (const s of [down, back]) {
      expect(mail.text).toContain(`${config.appUrl}/infrastructure/${s.id}`);
      expect(mail.html).toContain(`href="${config.appUrl}/infrastructure/${s.id}"`);
    }
    // Times in each reader's timezone (Sydney by default, UTC for Dee), said in the message.
    const [checked] = await db.select({ at: servers.statusChangedAt }).from(servers).where(eq(servers.id, down.id));
    expect(mail.text).toContain(`(times in Australia/Sydney)`);
    expect(mail.text).toContain(`went offline at ${formatDateTime(checked.at, 'Australia/Sydney')}`);
    const deeMail = mails.find((m) => m.to === 'dee@example.com')!;
    expect(deeMail.text).toContain(`went offline at ${formatDateTime(checked.at, 'UTC')}`);
    expect(deeMail.text).toContain('(times in UTC)');
    expect(mail.text).toContain(`${config.appUrl}/settings`);
  });

  it('sends nothing when a round changes nothing, and a retried round does not send twice', async () => {
    const before = (await statusMails()).length;
    const outcome = await testScheduler(database).runNow('health-checks');
    expect(outcome.message).toMatch(/offline\.$/);
    expect((await statusMails()).length).toBe(before);

    // Each stored change is announced once: announcing again finds nothing, and the same changes queued
    // again (a retried transaction) are deduplicated in the outbox.
    const db = database.db;
    await db.update(servers).set({ status: 'online' }).where(eq(servers.name, 'web-down'));
    const deps = { db, config: jobsConfig(), logger: createLogger('silent') };
    const round = await runRoundShare(deps, { slotAt: new Date(), workerId: 'test' });
    expect(round.changes.map((c) => [c.name, c.from, c.to])).toEqual([['web-down', 'online', 'offline']]);
    expect(await announceStatusChanges(deps)).toEqual({ changes: 1, emails: 2, pushes: 0 });
    const after = (await statusMails()).length;
    expect(after).toBe(before + 2);
    expect(await announceStatusChanges(deps)).toEqual({ changes: 0, emails: 0, pushes: 0 });
    expect(await queueServerStatusMails(db, deps.config.appUrl, round.changes)).toBe(2);
    expect((await statusMails()).length).toBe(after);
    const [{ n }] = await db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.to, 'bob@example.com'));
    expect(n).toBe(0);
  });
});

describe('changes of a round cut short (shutdown, deploy, crash) are announced', () => {
  const named = async (name: string) => (await statusMails()).filter((m) => m.text.includes(name));

  it('a change a round stored but was killed before announcing is announced by the next round, once', async () => {
    const db = database.db;
    const [s] = await db
      .insert(servers)
      .values({
        name: 'killed-round-down',
        ipAddress: '127.0.0.7',
        monitorPort: await closedPort('127.0.0.7'),
        status: 'online',
      })
      .returning();
    // What a round does for this server before the process dies (kill -9, or SIGTERM past the shutdown grace).
    expect((await probeServer(db, jobsConfig(), s.id)).server.status).toBe('offline');

    const outcome = await testScheduler(database).runNow('health-checks');
    expect(outcome.message).toMatch(/ 1 went offline or came back: e-mailed 2 users\.$/);
    const mails = await named('killed-round-down');
    expect(mails.map((m) => m.to).sort()).toEqual(['ada@example.com', 'dee@example.com']);
    expect(mails[0].text).toContain('killed-round-down (127.0.0.7, development) went offline at ');

    await testScheduler(database).runNow('health-checks');
    expect(await named('killed-round-down')).toHaveLength(2);
  });

  it('a round stopped by shutdown starts no more probes and announces what it found before it exits', async () => {
    const db = database.db;
    const silent = await silentPort('127.0.0.21');
    try {
      expect((await probeTcp('127.0.0.21', silent.port, 300)).error).toMatch(/^Timed out/);
      await db.delete(servers);
      // Never checked → checked first, by name: a-down, then 20 silent hosts fill the 20 probes; 4 wait.
      await db.insert(servers).values([
        {
          name: 'a-down',
          ipAddress: '127.0.0.7',
          monitorPort: await closedPort('127.0.0.7'),
          status: 'online',
          environment: 'production',
        },
        ...Array.from({ length: 24 }, (_, i) => ({
          name: `silent-${String(i).padStart(2, '0')}`,
          ipAddress: '127.0.0.21',
          monitorPort: silent.port,
          status: 'offline' as const,
        })),
      ]);
      // a-down is due first (never checked); the silent hosts were checked in an old round.
      await db.execute(
        sql`update health_schedule set round_at = '2000-01-01T00:00:00Z' where server_id in (select id from servers where name like 'silent-%')`,
      );
      const scheduler = testScheduler(database, { config: jobsConfig({ HEALTH_CHECK_CONCURRENCY: '20' }) });
      const run = scheduler.runNow('health-checks');
      await waitFor(
        async () => (await db.select().from(servers).where(eq(servers.name, 'a-down')))[0].status === 'offline',
        5000,
        'a-down stored offline',
      );

      // SIGTERM: the scheduler aborts the job's signal and waits; the round ends when its probes under way time out (3 s).
      expect(await scheduler.stop(5_000)).toEqual({ abandoned: [] });
      const outcome = await run;
      // 21 checked and 4 left when a-down's lane had claimed the next batch before the stop; 20 and 5 when not.
      const m =
        /^Checked (\d+) servers in \d+ ms: 0 online, 0 warning, \1 offline\. Stopped by shutdown: (\d+) left for another worker or the next round\. 1 went offline or came back: e-mailed 2 users\.$/.exec(
          outcome.message,
        );
      expect(m, outcome.message).not.toBeNull();
      const [checked, left] = [Number(m![1]), Number(m![2])];
      expect(checked + left).toBe(25);
      expect([4, 5]).toContain(left);
      expect((await named('a-down')).map((m) => m.to).sort()).toEqual(['ada@example.com', 'dee@example.com']);
      const unchecked = await db.select({ name: servers.name }).from(servers).where(isNull(servers.lastHealthCheck));
      expect(unchecked).toHaveLength(left);
      // Their claims were given back: another worker (or the next round) need not wait for the lease.
      const [held] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from health_schedule where lease_until is not null`,
      );
      expect(held.n).toBe(0);
    } finally {
      silent.close();
    }
  });

  it('two workers announcing at once announce each change once', async () => {
    const db = database.db;
    const port = await closedPort('127.0.0.7');
    const rows = await db
      .insert(servers)
      .values(
        Array.from({ length: 6 }, (_, i) => ({
          name: `twice-${i}`,
          ipAddress: '127.0.0.7',
          monitorPort: port,
          status: 'online' as const,
        })),
      )
      .returning();
    for (const r of rows) await probeServer(db, jobsConfig(), r.id);
    const other = usingPostgres() ? secondWorkerDatabase(database) : database;
    try {
      const deps = (d: Database) => ({ db: d.db, config: jobsConfig(), logger: createLogger('silent') });
      const [a, b] = await Promise.all([announceStatusChanges(deps(database)), announceStatusChanges(deps(other))]);
      expect(a.changes + b.changes).toBe(6);
      for (const r of rows) expect(await named(`${r.name} (`)).toHaveLength(2);
    } finally {
      if (other !== database) await other.close();
    }
  });
});
