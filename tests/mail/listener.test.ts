import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openPostgres, queryRows, type Database } from '../../src/db/client';
import { mailOutbox } from '../../src/db/schema';
import type { MailMessage } from '../../src/mail/transport';
import { startMailListener, type MailListener } from '../../src/mail/listener';
import { enqueueMail } from '../../src/mail/outbox';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { usingPostgres } from '../helpers/db';

/** Mail is sent when the transaction that queued it commits, by whichever process listens; no route kicks it. */

let t: TestContext;
let sent: MailMessage[];
let listener: MailListener;
const send = async (m: MailMessage) => void sent.push(m);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mail = (key: string) => ({
  dedupeKey: key,
  to: `${key}@example.com`,
  subject: key,
  text: key,
  html: `<p>${key}</p>`,
});

async function sentTo(to: string, timeoutMs = 5_000): Promise<MailMessage> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(25)) {
    const found = sent.find((m) => m.to === to);
    if (found) return found;
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms (sent: ${sent.map((m) => m.to).join(', ') || 'none'})`);
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  sent = [];
  await t.db.delete(mailOutbox).where(sql`true`);
  listener = await startMailListener(t.database, { config: t.config, logger: t.deps.logger }, { send });
});
afterEach(() => listener.stop());

describe('mail listener', () => {
  it('sends the mail a route queued once its transaction commits, without any kick from the route', async () => {
    const res = await t.app.request(
      '/api/auth/register',
      jsonRequest('POST', {
        firstName: 'Ada',
        lastName: 'L',
        email: 'ada@example.com',
        password: 'long enough',
        confirmPassword: 'long enough',
      }),
    );
    expect(res.status).toBe(201);
    expect((await sentTo('ada@example.com')).subject).toContain('Verify your email address');
  });

  it('sends nothing before the commit and nothing for a rolled-back transaction', async () => {
    await t.db.transaction(async (tx) => {
      await enqueueMail(tx, mail('committed'));
      await sleep(300);
      expect(sent).toEqual([]);
    });
    await sentTo('committed@example.com');
    await t.db
      .transaction(async (tx) => {
        await enqueueMail(tx, mail('rolled-back'));
        throw new Error('cause failed');
      })
      .catch(() => undefined);
    await enqueueMail(t.db, mail('after'));
    await sentTo('after@example.com');
    await sleep(200);
    expect(sent.map((m) => m.to)).toEqual(['committed@example.com', 'after@example.com']);
  });

  it('sends mail queued before it started', async () => {
    await listener.stop();
    await enqueueMail(t.db, mail('earlier'));
    listener = await startMailListener(t.database, { config: t.config, logger: t.deps.logger }, { send });
    await sentTo('earlier@example.com');
  });

  it('sends every message of a transaction exactly once', async () => {
    await t.db.transaction(async (tx) => {
      for (const key of ['one', 'two', 'three']) await enqueueMail(tx, mail(key));
    });
    await Promise.all(['one', 'two', 'three'].map((k) => sentTo(`${k}@example.com`)));
    await sleep(200);
    expect(sent.map((m) => m.to).sort()).toEqual(['one@example.com', 'three@example.com', 'two@example.com']);
  });
});

describe.skipIf(!usingPostgres())('mail listener on PostgreSQL', () => {
  let other: Database;
  beforeAll(() => {
    other = openPostgres(t.database.pool!.options.connectionString!, { max: 2 });
  });
  afterAll(() => other.close());

  it('delivers what another process queued, once that process commits', async () => {
    await other.db.transaction(async (tx) => {
      await enqueueMail(tx, mail('elsewhere'));
      await sleep(300);
      expect(sent).toEqual([]);
    });
    await sentTo('elsewhere@example.com');
  });

  it('listens again after its connection was cut', async () => {
    const cut = await queryRows<{ ok: boolean }>(
      other.db,
      sql`select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
    );
    expect(cut).toEqual([{ ok: true }]);
    await sleep(1_500);
    await enqueueMail(other.db, mail('reconnected'));
    await sentTo('reconnected@example.com', 8_000);
  }, 15_000);
});
