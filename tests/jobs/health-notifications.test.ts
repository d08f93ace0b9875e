import { createServer, type AddressInfo, type Server } from 'node:net';
import { count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { mailOutbox, servers, userPreferences, users } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { notifyServerChanges } from '../../src/notifications/service';
import { checkAllServers } from '../../src/servers/health';
import { formatDateTime } from '../../src/ui/format';
import { createTestDatabase } from '../helpers/db';
import { createSignedInUser } from '../helpers/users';
import { jobsConfig, testScheduler } from './support';

function listenOn(host: string): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(0, host, () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
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
    const ada = await createSignedInUser(db, { email: 'ada@example.com', firstName: 'Ada' });
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
        { name: 'web-down', ipAddress: '127.0.0.6', monitorPort: closed.port, status: 'online', environment: 'production' },
        { name: 'db-back', ipAddress: '127.0.0.5', monitorPort: listener.port, status: 'offline', environment: 'staging' },
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

    // The same round's changes notified again (a retry after a crash) are deduplicated in the outbox.
    const db = database.db;
    await db.update(servers).set({ status: 'online' }).where(eq(servers.name, 'web-down'));
    const deps = { db, config: jobsConfig(), logger: createLogger('silent') };
    const round = await checkAllServers(db);
    expect(round.changes.map((c) => [c.name, c.from, c.to])).toEqual([['web-down', 'online', 'offline']]);
    await notifyServerChanges(deps, round.changes);
    const after = (await statusMails()).length;
    expect(after).toBe(before + 2);
    expect(await notifyServerChanges(deps, round.changes)).toEqual({ emails: 2, pushes: 0 });
    expect((await statusMails()).length).toBe(after);
    const [{ n }] = await db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.to, 'bob@example.com'));
    expect(n).toBe(0);
  });
});
