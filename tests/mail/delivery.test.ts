import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema';
import { deliverDueMail, MAX_ATTEMPTS, retryDelaySeconds } from '../../src/mail/deliver';
import { startMailListener } from '../../src/mail/listener';
import { enqueueMail } from '../../src/mail/outbox';
import { verificationMail } from '../../src/mail/templates';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { freePort } from '../helpers/browser';

interface Received {
  to: string[];
  raw: string;
}

interface SmtpOptions {
  secure?: boolean;
  starttls?: boolean;
}

/**
 * A real SMTP receiver on 127.0.0.1 that can refuse the next N messages (451 by default) and take its time
 * to answer a message's data. `arrivals` lists the Message-ID of every message whose data arrived.
 */
async function startSmtp(options: SmtpOptions = {}) {
  const port = await freePort();
  const received: Received[] = [];
  const arrivals: string[] = [];
  let refuse = { count: 0, code: 451, text: 'Mailbox busy, try later' };
  let replyDelayMs = 0;
  const replyTimers = new Set<NodeJS.Timeout>();
  const server = new SMTPServer({
    secure: options.secure,
    authOptional: true,
    disabledCommands: options.starttls ? ['AUTH'] : ['STARTTLS', 'AUTH'],
    logger: false,
    // A reply reset() dropped leaves its connection open: close() would wait 30 s (the default) before ending it.
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        arrivals.push(/^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? 'none');
        const timer = setTimeout(() => {
          replyTimers.delete(timer);
          if (refuse.count > 0) {
            refuse.count--;
            return callback(Object.assign(new Error(refuse.text), { responseCode: refuse.code }));
          }
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        }, replyDelayMs);
        replyTimers.add(timer);
      });
    },
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `${options.secure ? 'smtps' : 'smtp'}://127.0.0.1:${port}${options.secure || options.starttls ? '?tls.rejectUnauthorized=false' : ''}`,
    received,
    arrivals,
    refuseNext: (count: number, code = 451, text = 'Mailbox busy, try later') => {
      refuse = { count, code, text };
    },
    /** Answers each message's data only after `ms`. */
    replyAfter: (ms: number) => {
      replyDelayMs = ms;
    },
    /** Forgets what arrived, drops replies still waiting, and answers at once again. */
    reset() {
      for (const timer of replyTimers) clearTimeout(timer);
      replyTimers.clear();
      received.length = 0;
      arrivals.length = 0;
      replyDelayMs = 0;
      refuse = { count: 0, code: 451, text: 'Mailbox busy, try later' };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const logs: string[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write: (chunk, _e, cb) => {
      logs.push(String(chunk));
      cb();
    },
  }),
);

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
  smtp.reset();
});

const deps = (smtpUrl?: string) => ({ db: t.db, config: { ...t.config, smtpUrl }, logger });
const message = (key: string, to = 'someone@example.com') => ({
  dedupeKey: key,
  to,
  ...verificationMail({ firstName: 'Sam', url: `${t.config.appUrl}/verify-email?token=${key}` }),
});
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
    await t.db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(mailOutbox.dedupeKey, 'smtp-1'));
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
    await t.db
      .update(mailOutbox)
      .set({ status: 'sending', lockedUntil: new Date(Date.now() + 60_000) })
      .where(eq(mailOutbox.dedupeKey, 'busy'));
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a slow SMTP server and overlapping runners', () => {
  // Test-sized time limits: a claim lasts 1.2 s and a send at most 1 s (in production: 15 and 5 minutes).
  const limits = { leaseMs: 1200, smtpTimeouts: { connectMs: 300, greetingMs: 300, idleMs: 800, totalMs: 1000 } };

  it('receives each message once when a run takes longer than a claim lasts (the claim outlives every send)', async () => {
    for (const key of ['slow-1', 'slow-2', 'slow-3']) await enqueueMail(t.db, message(key));
    smtp.replyAfter(500); // each send takes ~0.5 s, so the three take longer than one claim lasts
    const first = deliverDueMail(deps(smtp.url), limits);
    await sleep(1300); // the first runner is still sending; a second one (the cron job, or a kick) starts
    const second = deliverDueMail(deps(smtp.url), limits);
    const results = await Promise.all([first, second]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(3);
    expect(smtp.arrivals).toHaveLength(3);
    expect(new Set(smtp.arrivals).size).toBe(3);
    const rows = await t.db.select().from(mailOutbox);
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  it('cuts off a send at its time limit, before its claim ends, so no other runner sends the message meanwhile', async () => {
    // A claim with room to spare beyond the 1 s send limit, so a loaded machine's slow teardown of the cut-off
    // send does not run past it; the second runner still comes after an unbounded send's claim would have ended.
    const roomy = { ...limits, leaseMs: 2500 };
    await enqueueMail(t.db, message('stuck'));
    smtp.replyAfter(6000); // slower than any send may take
    const started = Date.now();
    const first = deliverDueMail(deps(smtp.url), roomy).then((r) => ({ ...r, ms: Date.now() - started }));
    await sleep(2600); // the claim of an unbounded send would have run out by now
    const second = await deliverDueMail(deps(smtp.url), roomy);
    const firstResult = await first;
    expect(firstResult).toMatchObject({ sent: 0, failed: 0, retried: 1 });
    expect(firstResult.ms).toBeLessThan(roomy.leaseMs);
    expect(second).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(smtp.arrivals).toHaveLength(1);
    const r = await row('stuck');
    expect(r).toMatchObject({ status: 'pending', attempts: 1, claimToken: null });
    expect(r.lastError).toContain('SMTP send took longer than 1 s; connection closed');
    expect(r.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
  });

  it('refuses a claim that would end before a send may have to', async () => {
    await expect(deliverDueMail(deps(smtp.url), { leaseMs: 1000, smtpTimeouts: limits.smtpTimeouts })).rejects.toThrow(
      'The mail claim must last longer than an SMTP send may take.',
    );
  });

  /**
   * Runner A claims the message and is still sending it when its claim runs out (simulated: the claim is
   * expired by hand, as if A had stalled); runner B takes it over and sends it; then A's send ends with `aEnds`.
   */
  async function takenOverWhileSending(key: string, aEnds: () => Promise<void>) {
    await enqueueMail(t.db, message(key));
    let release!: () => void;
    const aMayEnd = new Promise<void>((r) => (release = r));
    const a = deliverDueMail(deps(), { send: () => aMayEnd.then(aEnds) });
    while ((await row(key)).status !== 'sending') await sleep(10);
    await t.db
      .update(mailOutbox)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(mailOutbox.dedupeKey, key));
    const sentByB: string[] = [];
    expect(await deliverDueMail(deps(), { send: async (m) => void sentByB.push(m.id) })).toEqual({
      sent: 1,
      failed: 0,
      retried: 0,
    });
    expect(sentByB).toHaveLength(1);
    release();
    return a;
  }

  it('a runner whose claim was taken over does not mark the message sent again (logged instead)', async () => {
    logs.length = 0;
    expect(await takenOverWhileSending('lost-sent', async () => undefined)).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(await row('lost-sent')).toMatchObject({ status: 'sent', attempts: 1, claimToken: null });
    expect(logs.join('\n')).toContain('another runner took this message over before its result was recorded');
  });

  it('a runner whose claim was taken over does not put a sent message back into the queue', async () => {
    logs.length = 0;
    const aFails = async () => {
      throw new Error('Connection reset');
    };
    expect(await takenOverWhileSending('lost-failed', aFails)).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(await row('lost-failed')).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(logs.join('\n')).toContain('another runner took this message over before its result was recorded');
  });
});

describe('permanent and temporary refusals', () => {
  it('fails a message at once when the server refuses its data for good (5xx), keeping the reply', async () => {
    await enqueueMail(t.db, message('spam'));
    smtp.refuseNext(1, 554, 'Message rejected as spam');
    expect(await deliverDueMail(deps(smtp.url))).toEqual({ sent: 0, failed: 1, retried: 0 });
    const r = await row('spam');
    expect(r).toMatchObject({ status: 'failed', attempts: 1 });
    expect(r.lastError).toContain('554 Message rejected as spam');
    await t.db.update(mailOutbox).set({ nextAttemptAt: new Date(Date.now() - 1000) });
    expect(await deliverDueMail(deps(smtp.url))).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(smtp.arrivals).toHaveLength(1);
  });

  it('retries a temporary refusal (4xx) and a 5xx caused by our own settings (sender refused)', async () => {
    await enqueueMail(t.db, message('busy'));
    smtp.refuseNext(1, 452, 'Insufficient system storage');
    expect(await deliverDueMail(deps(smtp.url))).toEqual({ sent: 0, failed: 0, retried: 1 });
    expect(await row('busy')).toMatchObject({ status: 'pending', attempts: 1 });

    await enqueueMail(t.db, message('bad-sender'));
    const senderRefused = Object.assign(new Error('Mail command failed: 553 Sender address rejected'), {
      responseCode: 553,
      command: 'MAIL FROM',
    });
    const send = async () => {
      throw senderRefused;
    };
    expect(await deliverDueMail(deps(), { send })).toEqual({ sent: 0, failed: 0, retried: 1 });
    expect(await row('bad-sender')).toMatchObject({ status: 'pending', attempts: 1 });
  });
});

describe('TLS', () => {
  it.each([
    ['STARTTLS', { starttls: true }],
    ['implicit TLS (smtps)', { secure: true }],
  ])('sends over %s', async (_name, options) => {
    const tlsSmtp = await startSmtp(options);
    try {
      await enqueueMail(t.db, message('tls', 'tls@example.com'));
      expect(await deliverDueMail(deps(tlsSmtp.url))).toEqual({ sent: 1, failed: 0, retried: 0 });
      expect(tlsSmtp.received.map((m) => m.to)).toEqual([['tls@example.com']]);
    } finally {
      await tlsSmtp.close();
    }
  });
});

describe('delivery right after a web request', () => {
  it('sends the verification e-mail in the background, without waiting for the worker', async () => {
    const app = await createTestApp({ SMTP_URL: smtp.url });
    // As main.ts does: the web process listens for committed outbox messages.
    const listener = await startMailListener(app.database, { config: app.config, logger: app.deps.logger });
    try {
      const res = await app.app.request(
        '/api/auth/register',
        jsonRequest('POST', {
          firstName: 'Bg',
          lastName: 'Send',
          email: 'bg@example.com',
          password: 'longenough',
          confirmPassword: 'longenough',
        }),
      );
      expect(res.status).toBe(201);
      for (let i = 0; i < 50 && smtp.received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].to).toEqual(['bg@example.com']);
      expect(smtp.received[0].raw).toContain('/verify-email?token=');
    } finally {
      await listener.stop();
      await app.close();
    }
  });
});
