import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema';
import { deliverDueMail, MAX_ATTEMPTS, retryDelaySeconds } from '../../src/mail/deliver';
import { enqueueMail } from '../../src/mail/outbox';
import { verificationMail } from '../../src/mail/templates';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { freePort } from '../helpers/browser';

interface Received {
  to: string[];
  raw: string;
}

/** A real SMTP receiver on 127.0.0.1 that can refuse the next N messages with a 451. */
async function startSmtp() {
  const port = await freePort();
  const received: Received[] = [];
  let refuse = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuse > 0) {
          refuse--;
          const err = Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 });
          return callback(err);
        }
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext: (n: number) => void (refuse = n),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const logs: string[] = [];
const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _e, cb) => (logs.push(String(chunk)), cb()) }));

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
  await t.close();
});
beforeEach(async () => {
  await t.db.delete(mailOutbox).where(sql`true`);
  smtp.received.length = 0;
});

const deps = (smtpUrl?: string) => ({ db: t.db, config: { ...t.config, smtpUrl }, logger });
const message = (key: string, to = 'someone@example.com') => ({ dedupeKey: key, to, ...verificationMail({ firstName: 'Sam', url: `${t.config.appUrl}/verify-email?token=${key}` }) });
const row = async (key: string) => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, key)))[0];

describe('outbox', () => {
  it('ignores a second message with the same dedupe key', async () => {
    await enqueueMail(t.db, message('same'));
    await enqueueMail(t.db, message('same'));
    expect(await t.db.select().from(mailOutbox)).toHaveLength(1);
  });

  it('is written in the same transaction as its cause (rolled back with it)', async () => {
    await t.db
      .transaction(async (tx) => {
        await enqueueMail(tx, message('rolled-back'));
        throw new Error('cause failed');
      })
      .catch(() => undefined);
    expect(await row('rolled-back')).toBeUndefined();
  });
});

describe('delivery', () => {
  it('without SMTP_URL writes .eml and .txt files into DATA_DIR/mail and logs the links', async () => {
    await enqueueMail(t.db, message('file-1'));
    expect(await deliverDueMail(deps())).toEqual({ sent: 1, failed: 0, retried: 0 });
    const dir = path.join(t.config.dataDir, 'mail');
    const files = await readdir(dir);
    const eml = files.find((f) => f.endsWith('.eml'))!;
    const txt = files.find((f) => f.endsWith('.txt'))!;
    expect(await readFile(path.join(dir, txt), 'utf8')).toContain(`${t.config.appUrl}/verify-email?token=file-1`);
    const raw = await readFile(path.join(dir, eml), 'utf8');
    expect(raw).toContain('multipart/alternative');
    expect(raw).toContain('text/html');
    expect(logs.join('\n')).toContain(`${t.config.appUrl}/verify-email?token=file-1`);
    expect((await row('file-1')).status).toBe('sent');
  });

  it('retries after an SMTP failure with backoff and delivers exactly once to a real SMTP receiver', async () => {
    await enqueueMail(t.db, message('smtp-1', 'to@example.com'));
    smtp.refuseNext(1);
    expect(await deliverDueMail(deps(smtp.url))).toEqual({ sent: 0, failed: 0, retried: 1 });
    let r = await row('smtp-1');
    expect(r).toMatchObject({ status: 'pending', attempts: 1 });
    expect(r.lastError).toMatch(/451|busy/);
    const wait = (r.nextAttemptAt.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(20);
    expect(wait).toBeLessThanOrEqual(31);
    expect(smtp.received).toHaveLength(0);

    // Not due yet: nothing happens.
    expect(await deliverDueMail(deps(smtp.url))).toEqual({ sent: 0, failed: 0, retried: 0 });
    // Time passes.
    await t.db.update(mailOutbox).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(mailOutbox.dedupeKey, 'smtp-1'));
    expect(await deliverDueMail(deps(smtp.url))).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(await deliverDueMail(deps(smtp.url))).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(['to@example.com']);
    expect(smtp.received[0].raw).toContain('Subject: Verify your email address for Ops Hub');
    expect(smtp.received[0].raw).toContain('text/plain');
    expect(smtp.received[0].raw).toContain('text/html');
    r = await row('smtp-1');
    expect(r).toMatchObject({ status: 'sent', attempts: 2 });
    expect(r.sentAt).toBeTruthy();
  });

  it('keeps the message when the SMTP server is down, and sends it once it is back', async () => {
    const downPort = await freePort();
    await enqueueMail(t.db, message('down-1'));
    expect(await deliverDueMail(deps(`smtp://127.0.0.1:${downPort}`))).toMatchObject({ retried: 1 });
    await t.db.update(mailOutbox).set({ nextAttemptAt: new Date(Date.now() - 1000) });
    expect(await deliverDueMail(deps(smtp.url))).toMatchObject({ sent: 1 });
    expect(smtp.received).toHaveLength(1);
  });

  it('backs off 30 s × 2^(attempts-1), capped at 1 hour, and gives up after 10 attempts', async () => {
    expect([1, 2, 3, 4, 8, 10].map(retryDelaySeconds)).toEqual([30, 60, 120, 240, 3600, 3600]);
    await enqueueMail(t.db, message('doomed'));
    await t.db.update(mailOutbox).set({ attempts: MAX_ATTEMPTS - 1 });
    const failing = async () => {
      throw new Error('550 no such user');
    };
    expect(await deliverDueMail(deps(), { send: failing })).toEqual({ sent: 0, failed: 1, retried: 0 });
    expect(await row('doomed')).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(await deliverDueMail(deps(), { send: failing })).toEqual({ sent: 0, failed: 0, retried: 0 });
  });

  it('takes over a message whose worker died while sending (lock expired)', async () => {
    await enqueueMail(t.db, message('orphan'));
    await t.db.update(mailOutbox).set({ status: 'sending', lockedUntil: new Date(Date.now() - 1000) });
    expect(await deliverDueMail(deps(smtp.url))).toMatchObject({ sent: 1 });
    await enqueueMail(t.db, message('busy'));
    await t.db.update(mailOutbox).set({ status: 'sending', lockedUntil: new Date(Date.now() + 60_000) }).where(eq(mailOutbox.dedupeKey, 'busy'));
    expect(await deliverDueMail(deps(smtp.url))).toMatchObject({ sent: 0 });
  });

  it('concurrent workers send every message exactly once', async () => {
    for (let i = 0; i < 20; i++) await enqueueMail(t.db, message(`bulk-${i}`));
    const sentIds: string[] = [];
    const send = async (m: { id: string }) => {
      await new Promise((r) => setTimeout(r, 5));
      sentIds.push(m.id);
    };
    const runs = await Promise.all([
      deliverDueMail(deps(), { send, limit: 7 }),
      deliverDueMail(deps(), { send, limit: 7 }),
      deliverDueMail(deps(), { send, limit: 7 }),
    ]);
    const again = await deliverDueMail(deps(), { send });
    expect(runs.reduce((n, r) => n + r.sent, 0) + again.sent).toBe(20);
    expect(new Set(sentIds).size).toBe(20);
    expect(sentIds).toHaveLength(20);
  });
});

describe('delivery right after a web request', () => {
  it('sends the verification e-mail in the background, without waiting for the worker', async () => {
    const app = await createTestApp({ SMTP_URL: smtp.url });
    try {
      const res = await app.app.request(
        '/api/auth/register',
        jsonRequest('POST', { firstName: 'Bg', lastName: 'Send', email: 'bg@example.com', password: 'longenough', confirmPassword: 'longenough' }),
      );
      expect(res.status).toBe(201);
      for (let i = 0; i < 50 && smtp.received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].to).toEqual(['bg@example.com']);
      expect(smtp.received[0].raw).toContain('/verify-email?token=');
    } finally {
      await new Promise((r) => setTimeout(r, 200));
      await app.close();
    }
  });
});
