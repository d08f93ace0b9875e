import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client';
import { mailOutbox } from '../../src/db/schema';
import { enqueueMail } from '../../src/mail/outbox';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createTestDatabase, usingPostgres } from '../helpers/db';
import { createSignedInUser } from '../helpers/users';
import { jobsConfig, secondWorkerDatabase, testScheduler } from './support';

interface Receiver {
  url: string;
  /** Message-IDs accepted, in order. */
  received: string[];
  /** Delivery attempts seen per Message-ID. */
  attempts: Map<string, number>;
  close(): Promise<void>;
}

/** A real SMTP receiver on 127.0.0.1 that answers 451 to each message's first `failFirst` attempts and 550 to anyone@reject.test. */
async function startReceiver(failFirst: number): Promise<Receiver> {
  const received: string[] = [];
  const attempts = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (address.address.endsWith('@reject.test'))
        return cb(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      cb();
    },
    onData(stream, _session, cb) {
      let raw = '';
      stream.on('data', (d) => (raw += d));
      stream.on('end', () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? 'none';
        const n = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, n);
        if (n <= failFirst) return cb(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        received.push(id);
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    attempts,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function outbox(db: Database['db']) {
  return queryRows<{ to: string; status: string; attempts: number; due_in_s: number }>(
    db,
    sql`select "to", status, attempts, extract(epoch from (next_attempt_at - now()))::int as due_in_s from mail_outbox order by "to"`,
  );
}

/** Moves every waiting message's retry time to now (as if the backoff had elapsed). */
const advanceClock = (db: Database['db']) =>
  db.execute(sql`update mail_outbox set next_attempt_at = now() where status = 'pending'`);

const mail = (to: string) => ({
  dedupeKey: `test:${to}`,
  to,
  subject: `Hello ${to}`,
  text: 'Plain body',
  html: '<p>HTML body</p>',
});

describe('mail-delivery job against a real SMTP receiver', () => {
  let receiver: Receiver;
  let database: Database;
  beforeAll(async () => {
    receiver = await startReceiver(2);
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
    await receiver.close();
  });

  it('retries each message with backoff while the server fails, then delivers it exactly once', async () => {
    const db = database.db;
    for (const to of ['a@example.com', 'b@example.com', 'c@example.com']) await enqueueMail(db, mail(to));
    const scheduler = testScheduler(database, { config: jobsConfig({ SMTP_URL: receiver.url }) });

    expect(await scheduler.runNow('mail-delivery')).toMatchObject({
      status: 'ok',
      message: 'Sent 0, will retry 3, failed 0.',
    });
    const afterFirst = await outbox(db);
    expect(afterFirst.map((m) => [m.status, m.attempts])).toEqual([
      ['pending', 1],
      ['pending', 1],
      ['pending', 1],
    ]);
    expect(Math.min(...afterFirst.map((m) => m.due_in_s))).toBeGreaterThanOrEqual(20); // backoff, not an immediate retry

    // Nothing is due yet: a run now sends nothing.
    expect(await scheduler.runNow('mail-delivery')).toMatchObject({ message: 'Sent 0, will retry 0, failed 0.' });

    await advanceClock(db);
    expect(await scheduler.runNow('mail-delivery')).toMatchObject({ message: 'Sent 0, will retry 3, failed 0.' });
    const afterSecond = await outbox(db);
    expect(afterSecond.map((m) => m.attempts)).toEqual([2, 2, 2]);
    expect(Math.min(...afterSecond.map((m) => m.due_in_s))).toBeGreaterThan(
      Math.max(...afterFirst.map((m) => m.due_in_s)),
    ); // exponential

    await advanceClock(db);
    expect(await scheduler.runNow('mail-delivery')).toMatchObject({ message: 'Sent 3, will retry 0, failed 0.' });
    await advanceClock(db);
    expect(await scheduler.runNow('mail-delivery')).toMatchObject({ message: 'Sent 0, will retry 0, failed 0.' });

    expect((await outbox(db)).map((m) => [m.status, m.attempts])).toEqual([
      ['sent', 3],
      ['sent', 3],
      ['sent', 3],
    ]);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received).size).toBe(3);
    expect([...receiver.attempts.values()]).toEqual([3, 3, 3]);
  });
});

describe('failed e-mail on /admin/jobs', () => {
  let receiver: Receiver;
  let t: TestContext;
  beforeAll(async () => {
    receiver = await startReceiver(0);
    t = await createTestApp({ SMTP_URL: receiver.url });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('a message refused for the 10th time is marked failed and listed for admins', async () => {
    await t.db.insert(mailOutbox).values({ ...mail('nobody@reject.test'), attempts: 9 });
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    const run = await t.app.request('/admin/jobs/mail-delivery/run', jsonRequest('POST', undefined, admin.cookie));
    expect(run.status).toBe(303);
    expect(run.headers.get('location')).toBe('/admin/jobs?ran=mail-delivery&status=ok');
    expect((await outbox(t.db)).map((m) => [m.to, m.status, m.attempts])).toEqual([
      ['nobody@reject.test', 'failed', 10],
    ]);

    const page = await (
      await t.app.request(run.headers.get('location')!, { headers: { Cookie: admin.cookie } })
    ).text();
    expect(page).toContain('E-mail delivery finished.');
    expect(page).toContain('Sent 0, will retry 0, failed 1.');
    const failedSection = page.slice(page.indexOf('Failed e-mail'));
    expect(failedSection).toContain('nobody@reject.test');
    expect(failedSection).toContain('Hello nobody@reject.test');
    expect(failedSection).toContain('No such mailbox');
  });
});

describe('a recipient the server refuses for good', () => {
  let receiver: Receiver;
  let t: TestContext;
  beforeAll(async () => {
    receiver = await startReceiver(1);
    t = await createTestApp({ SMTP_URL: receiver.url });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it("is failed after one attempt with the server's reply and listed for admins, while a busy server (451) is retried", async () => {
    await enqueueMail(t.db, mail('nobody@reject.test'));
    await enqueueMail(t.db, mail('busy@example.com'));
    const admin = await createSignedInUser(t.db, { role: 'admin' });
    const run = await t.app.request('/admin/jobs/mail-delivery/run', jsonRequest('POST', undefined, admin.cookie));
    expect(run.status).toBe(303);
    const rows = await outbox(t.db);
    expect(rows.map((m) => [m.to, m.status, m.attempts])).toEqual([
      ['busy@example.com', 'pending', 1],
      ['nobody@reject.test', 'failed', 1],
    ]);
    expect(rows[0].due_in_s).toBeGreaterThanOrEqual(20);
    const [refused] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'nobody@reject.test'));
    expect(refused.lastError).toContain('550 No such mailbox');

    const page = await (
      await t.app.request(run.headers.get('location')!, { headers: { Cookie: admin.cookie } })
    ).text();
    expect(page).toContain('Sent 0, will retry 1, failed 1.');
    const failedSection = page.slice(page.indexOf('Failed e-mail'));
    expect(failedSection).toContain('Messages the mail server refused, or that failed 10 delivery attempts.');
    expect(failedSection).toContain('nobody@reject.test');
    expect(failedSection).toContain('550 No such mailbox');
    expect(failedSection).not.toContain('busy@example.com');
  });
});

describe.skipIf(!usingPostgres())('two workers delivering the same outbox', () => {
  if (!usingPostgres())
    console.info('[jobs] two-worker mail test skipped: it needs a real PostgreSQL (set TEST_DATABASE_URL)');

  it('send every message exactly once', async () => {
    const receiver = await startReceiver(0);
    const a = await createTestDatabase();
    const b = secondWorkerDatabase(a);
    try {
      for (let i = 0; i < 12; i++) await enqueueMail(a.db, mail(`user${String(i).padStart(2, '0')}@example.com`));
      const config = jobsConfig({ SMTP_URL: receiver.url });
      const workers = [testScheduler(a, { config }), testScheduler(b, { config })];
      const outcomes = await Promise.all([0, 1, 2].flatMap(() => workers.map((w) => w.runNow('mail-delivery'))));
      expect(outcomes.some((o) => o.status === 'ok')).toBe(true);
      expect(receiver.received).toHaveLength(12);
      expect(new Set(receiver.received).size).toBe(12);
      expect((await outbox(a.db)).every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
    } finally {
      await b.close();
      await a.close();
      await receiver.close();
    }
  });
});
