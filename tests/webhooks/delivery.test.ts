import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { MAX_ATTEMPTS, retryDelayMs } from '../../src/webhooks/deliver';
import { startWebhookListener } from '../../src/webhooks/commands';
import { queueWebhookEvent, queueWebhookEvents } from '../../src/webhooks/service';
import { webhooksJob } from '../../jobs/webhooks';
import { createTestApp, type TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';
import type { Receiver } from './receiver';
import { api, deliver, deliveriesOf, endpointAt, closeWebhookWorld, openWebhookWorld } from './support';

/**
 * Deliveries end to end on loopback: signed (the receiver verifies), retried with backoff through a receiver outage
 * (500s, then a closed port) with no loss and one id per event, at least once when a runner dies or an answer never
 * comes, re-sent with the same id, refused at send time when the host is no longer allowed, sent after commit by
 * the listener without waiting for the job.
 */
let t: TestContext;
let hooks: Receiver;
let admin: TestUser;
const SECONDS = 1000;

beforeAll(async () => {
  ({ t, hooks, admin } = await openWebhookWorld());
});
// Each test has its own endpoint(s) only (the queue goes with them).
beforeEach(async () => {
  await t.db.delete(webhookEndpoints);
});
afterAll(() => closeWebhookWorld({ t, hooks }));

const endpoint = (body: Record<string, unknown> = {}) => endpointAt(t, admin, hooks, 'hook', body);

/** Queues an event as a change would: in a transaction. */
const happen = (event: 'server.created' | 'user.approved' | 'item.deleted', data: Record<string, unknown>) =>
  t.db.transaction((tx) => queueWebhookEvent(tx, event, data));

describe('a delivery', () => {
  it('is signed (HMAC-SHA256 of timestamp.body), carries its id in the body and a header, and is stored as sent', async () => {
    const e = await endpoint();
    await happen('server.created', { server: { id: 's1', name: 'web-1' }, path: '/infrastructure/s1' });
    expect(await deliver(t)).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [got] = hooks.at(e.path);
    const [row] = await deliveriesOf(t, e.id);
    expect(got.verified).toBe(true);
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'OpsHub-Webhooks/1',
      'x-opshub-event': 'server.created',
      'x-opshub-delivery': row.id,
    });
    expect(Math.abs(Number(got.headers['x-opshub-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    expect(got.body).toEqual({
      id: row.id,
      event: 'server.created',
      occurredAt: row.occurredAt.toISOString(),
      data: {
        server: { id: 's1', name: 'web-1' },
        path: '/infrastructure/s1',
        url: 'http://localhost:3000/infrastructure/s1',
      },
    });
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastStatus: 200, lastResponse: 'thanks' });
    expect(row.sentAt).toBeInstanceOf(Date);
    // Sent once: another run sends nothing.
    expect(await deliver(t)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(hooks.at(e.path)).toHaveLength(1);
  });

  it('a receiver notices a body changed on the way or signed with another secret', async () => {
    const e = await endpoint();
    await happen('user.approved', { user: { id: 'u1' } });
    await deliver(t);
    const [got] = hooks.at(e.path);
    const { verifySignature } = await import('./receiver');
    expect(verifySignature(e.secret, got.headers, got.raw)).toBe(true);
    expect(verifySignature(e.secret, got.headers, got.raw.replace('u1', 'u2'))).toBe(false);
    expect(verifySignature('another-secret-another-secret!!', got.headers, got.raw)).toBe(false);
  });

  it('posts the Slack and Teams shapes, signed the same way', async () => {
    const slack = await endpoint({ format: 'slack', events: ['item.deleted'] });
    const teams = await endpoint({ format: 'teams', events: ['item.deleted'] });
    await happen('item.deleted', {
      item: { id: 'i1', title: 'Old <runbook> & *notes*', space: 'knowledge', version: 3 },
    });
    await deliver(t);
    const [s] = hooks.at(slack.path);
    const [m] = hooks.at(teams.path);
    expect(s.verified && m.verified).toBe(true);
    expect(s.body).toEqual({ text: ':red_circle: Old &lt;runbook&gt; &amp; *notes* was deleted' });
    expect(m.body).toMatchObject({
      '@type': 'MessageCard',
      summary: 'Old <runbook> & *notes* was deleted',
      title: 'Old \\<runbook\\> \\& \\*notes\\* was deleted',
      themeColor: 'D13438',
      sections: [
        {
          facts: [
            { name: 'Space', value: 'knowledge' },
            { name: 'Version', value: '3' },
          ],
        },
      ],
      potentialAction: [],
    });
    expect(s.headers['x-opshub-event']).toBe('item.deleted');
  });
});

describe('a receiver outage', () => {
  it('answers 500 twice, then 200: retried at 30 s and 60 s, one id throughout, the answer kept', async () => {
    const e = await endpoint();
    hooks.answers.set(e.path, [500, 500, 200]);
    await happen('user.approved', { user: { id: 'u2' } });
    expect(await deliver(t)).toEqual({ sent: 0, retried: 1, failed: 0 });
    let [row] = await deliveriesOf(t, e.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500 });
    expect(row.lastResponse).toHaveLength(500);
    expect(row.lastResponse).toMatch(/^receiver says no \(500\) x+$/);
    // The first retry is within a minute.
    const wait = row.nextAttemptAt.getTime() - Date.now();
    expect(wait).toBeGreaterThan(25 * SECONDS);
    expect(wait).toBeLessThanOrEqual(30 * SECONDS);
    expect(await deliver(t)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await deliver(t, 31 * SECONDS)).toEqual({ sent: 0, retried: 1, failed: 0 });
    [row] = await deliveriesOf(t, e.id);
    expect(row.nextAttemptAt.getTime() - (Date.now() + 31 * SECONDS)).toBeLessThanOrEqual(60 * SECONDS);
    expect(await deliver(t, 100 * SECONDS)).toEqual({ sent: 1, retried: 0, failed: 0 });
    [row] = await deliveriesOf(t, e.id);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, lastStatus: 200, lastResponse: 'thanks' });
    expect(hooks.at(e.path).map((r) => r.headers['x-opshub-delivery'])).toEqual([row.id, row.id, row.id]);
    expect(hooks.at(e.path).every((r) => r.verified)).toBe(true);
  });

  it('a closed port: everything queued meanwhile arrives once it is back, each event under one id, none lost', async () => {
    const e = await endpoint();
    await hooks.down();
    try {
      await t.db.transaction((tx) =>
        queueWebhookEvents(
          tx,
          Array.from({ length: 12 }, (_, i) => ({ event: 'server.created' as const, data: { server: { n: i } } })),
        ),
      );
      expect(await deliver(t)).toEqual({ sent: 0, retried: 12, failed: 0 });
      const rows = await deliveriesOf(t, e.id);
      expect(rows.every((r) => r.status === 'pending' && r.lastStatus === null && !!r.lastResponse)).toBe(true);
    } finally {
      await hooks.up();
    }
    expect(await deliver(t, 31 * SECONDS)).toEqual({ sent: 12, retried: 0, failed: 0 });
    const rows = await deliveriesOf(t, e.id);
    const got = hooks.at(e.path);
    expect(got).toHaveLength(12);
    expect(new Set(got.map((r) => r.headers['x-opshub-delivery']))).toEqual(new Set(rows.map((r) => r.id)));
    expect(new Set(got.map((r) => JSON.stringify((r.body as { data: unknown }).data))).size).toBe(12);
    expect(got.every((r) => r.verified)).toBe(true);
  });

  it('gives up after MAX_ATTEMPTS and says so; the backoff grows to an hour', async () => {
    expect([1, 2, 3, 8, 20].map(retryDelayMs)).toEqual([30, 60, 120, 3600, 3600].map((s) => s * SECONDS));
    const e = await endpoint();
    hooks.answers.set(e.path, [503]);
    await happen('user.approved', { user: { id: 'u3' } });
    const [row] = await deliveriesOf(t, e.id);
    await t.db
      .update(webhookDeliveries)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(webhookDeliveries.id, row.id));
    expect(await deliver(t)).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect((await deliveriesOf(t, e.id))[0]).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      lastStatus: 503,
    });
    expect(await deliver(t, 2 * 3600 * SECONDS)).toEqual({ sent: 0, retried: 0, failed: 0 });
  });
});

describe('at least once, with a stable id', () => {
  it('two runners at once send each delivery once', async () => {
    const e = await endpoint({ events: ['server.created'] });
    await t.db.transaction((tx) =>
      queueWebhookEvents(
        tx,
        Array.from({ length: 30 }, (_, i) => ({ event: 'server.created' as const, data: { server: { n: i } } })),
      ),
    );
    const [a, b] = await Promise.all([deliver(t), deliver(t)]);
    expect(a.sent + b.sent).toBe(30);
    expect(hooks.at(e.path)).toHaveLength(30);
    expect(hooks.ids(e.path)).toHaveLength(30);
  });

  it('a runner that died mid-send: once its lease runs out the delivery is sent again under the same id', async () => {
    const e = await endpoint();
    await happen('user.approved', { user: { id: 'u4' } });
    const [row] = await deliveriesOf(t, e.id);
    const past = new Date(Date.now() - SECONDS);
    await t.db
      .update(webhookDeliveries)
      .set({ status: 'sending', attempts: 1, lockedUntil: past, nextAttemptAt: new Date(Date.now() + 60 * SECONDS) })
      .where(eq(webhookDeliveries.id, row.id));
    // Still leased: nobody takes it.
    expect(await deliver(t)).toEqual({ sent: 0, retried: 0, failed: 0 });
    await t.db.update(webhookDeliveries).set({ nextAttemptAt: past }).where(eq(webhookDeliveries.id, row.id));
    expect(await deliver(t)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(hooks.at(e.path).map((r) => r.headers['x-opshub-delivery'])).toEqual([row.id]);
    expect((await deliveriesOf(t, e.id))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('an answer that never comes is retried: the receiver sees the id twice and keeps one', async () => {
    const e = await endpoint();
    hooks.answers.set(e.path, ['hang', 200]);
    await happen('user.approved', { user: { id: 'u5' } });
    expect(await deliver(t, 0, { timeoutMs: 300 })).toEqual({ sent: 0, retried: 1, failed: 0 });
    const [row] = await deliveriesOf(t, e.id);
    expect(row.lastResponse).toMatch(/No answer within 300 ms after sending/);
    expect(await deliver(t, 31 * SECONDS)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(hooks.at(e.path)).toHaveLength(2);
    expect(hooks.ids(e.path)).toEqual([row.id]);
  });

  it('Re-send posts it again with the same id', async () => {
    const e = await endpoint();
    await happen('user.approved', { user: { id: 'u6' } });
    await deliver(t);
    const [row] = await deliveriesOf(t, e.id);
    const resent = await api(t, admin, 'POST', `/api/admin/webhook-deliveries/${row.id}/resend`);
    expect(resent.status).toBe(200);
    expect(await deliver(t)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(hooks.at(e.path).map((r) => r.headers['x-opshub-delivery'])).toEqual([row.id, row.id]);
    expect(hooks.at(e.path).every((r) => r.verified)).toBe(true);
  });
});

describe('outbound targets at send time', () => {
  it('a host no longer allowed (WEBHOOK_ALLOW_HOSTS changed) is not called: the delivery fails and says why', async () => {
    const e = await endpoint();
    await happen('user.approved', { user: { id: 'u7' } });
    const narrowed = await createTestApp({ WEBHOOK_ALLOW_HOSTS: 'hooks.example.com' }, t.database);
    expect(await deliver(narrowed)).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(hooks.at(e.path)).toEqual([]);
    expect((await deliveriesOf(t, e.id))[0]).toMatchObject({
      status: 'failed',
      lastResponse:
        'The webhook host 127.0.0.1: Refused: 127.0.0.1 is outside the allowed networks (WEBHOOK_ALLOW_HOSTS).',
    });
  });
});

describe('after commit', () => {
  it('the listener sends a delivery as soon as its transaction commits, and nothing for one that rolled back', async () => {
    const e = await endpoint();
    const listener = await startWebhookListener(t.database, { config: t.config, logger: createLogger('silent') });
    try {
      await t.db
        .transaction(async (tx) => {
          await queueWebhookEvent(tx, 'user.approved', { user: { id: 'rolled-back' } });
          throw new Error('no');
        })
        .catch(() => undefined);
      await happen('user.approved', { user: { id: 'u8' } });
      const deadline = Date.now() + 10 * SECONDS;
      while (!hooks.at(e.path).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(hooks.at(e.path).map((r) => (r.body as { data: unknown }).data)).toEqual([{ user: { id: 'u8' } }]);
    } finally {
      await listener.stop();
    }
    const rows = await t.db
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, [e.id]));
    expect(rows.map((r) => r.status)).toEqual(['sent']);
  });
});

describe('the webhooks job', () => {
  it('sends what is due (nothing here), then deletes sent and failed deliveries older than 30 days (not those still pending)', async () => {
    const e = await endpoint();
    await t.db.transaction((tx) =>
      queueWebhookEvents(
        tx,
        ['old-sent', 'old-failed', 'old-pending', 'new-sent'].map((n) => ({
          event: 'user.approved' as const,
          data: { n },
        })),
      ),
    );
    const rows = await deliveriesOf(t, e.id);
    const byName = (n: string) => rows.find((r) => (r.payload as { n: string }).n === n)!.id;
    const old = new Date(Date.now() - 31 * 86_400_000);
    const set = (n: string, values: Partial<typeof webhookDeliveries.$inferInsert>) =>
      t.db
        .update(webhookDeliveries)
        .set(values)
        .where(eq(webhookDeliveries.id, byName(n)));
    await set('old-sent', { status: 'sent', createdAt: old });
    await set('old-failed', { status: 'failed', createdAt: old });
    // Still being retried (due later): kept, however old.
    await set('old-pending', { createdAt: old, attempts: 3, nextAttemptAt: new Date(Date.now() + 60 * SECONDS) });
    await set('new-sent', { status: 'sent' });
    const summary = await webhooksJob.run({
      db: t.db,
      database: t.database,
      config: t.config,
      logger: createLogger('silent'),
      signal: new AbortController().signal,
      now: new Date(),
    });
    expect(summary).toBe('Sent 0, will retry 0, failed 0. Deleted 2 deliveries older than 30 days.');
    const left = (await deliveriesOf(t, e.id)).map((r) => [(r.payload as { n: string }).n, r.status]);
    expect(left.sort()).toEqual([
      ['new-sent', 'sent'],
      ['old-pending', 'pending'],
    ]);
  });
});
