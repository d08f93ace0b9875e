import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { runWebhookDeliveries } from '../../src/webhooks/commands';
import { QUEUE_CAP } from '../../src/webhooks/queue';
import { queueWebhookEvent, queueWebhookEvents } from '../../src/webhooks/service';
import type { TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';
import type { Receiver } from './receiver';
import { api, deliver, deliveriesOf, endpointAt, closeWebhookWorld, openWebhookWorld } from './support';

/**
 * The delivery rules a review asked for: chat receivers (Slack, Teams) never get a message twice, a 4xx that is the
 * receiver's final word is not retried, a claim is recorded only while it holds, a dead receiver holds at most 2
 * runners, and an endpoint's queue is capped (what is dropped is counted and logged).
 */
let t: TestContext;
let hooks: Receiver;
let admin: TestUser;
const SECONDS = 1000;

beforeAll(async () => {
  ({ t, hooks, admin } = await openWebhookWorld());
});
beforeEach(async () => {
  await t.db.delete(webhookEndpoints);
});
afterAll(() => closeWebhookWorld({ t, hooks }));

const endpoint = (body: Record<string, unknown> = {}) => endpointAt(t, admin, hooks, 'rules', body);

const happen = (data: Record<string, unknown> = {}) =>
  t.db.transaction((tx) => queueWebhookEvent(tx, 'user.approved', { user: { id: 'u' }, ...data }));

const waitUntil = async (what: () => boolean, ms = 5 * SECONDS) => {
  const deadline = Date.now() + ms;
  while (!what() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return what();
};

describe('Slack and Teams: never twice', () => {
  it('an answer that never comes fails a Slack delivery (it may have arrived); it is not sent again', async () => {
    const slack = await endpoint({ format: 'slack' });
    const json = await endpoint();
    hooks.answers.set(slack.path, ['hang']);
    hooks.answers.set(json.path, ['hang', 200]);
    await happen();
    expect(await deliver(t, 0, { timeoutMs: 1500 })).toEqual({ sent: 0, retried: 1, failed: 1 });
    const [row] = await deliveriesOf(t, slack.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, lastStatus: null });
    expect(row.lastResponse).toBe(
      'No answer within 1500 ms after sending. Not sent again: a slack message would show twice.',
    );
    // The JSON receiver dedupes on the id: it gets it again.
    expect(await deliver(t, 31 * SECONDS)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(hooks.at(slack.path)).toHaveLength(1);
    expect(hooks.at(json.path)).toHaveLength(2);
    expect(hooks.ids(json.path)).toHaveLength(1);
  });

  it('a Teams delivery whose runner died mid-send is failed when its lease runs out, not posted again', async () => {
    const teams = await endpoint({ format: 'teams' });
    await happen();
    const [row] = await deliveriesOf(t, teams.id);
    const past = new Date(Date.now() - SECONDS);
    await t.db
      .update(webhookDeliveries)
      .set({ status: 'sending', attempts: 1, lockedUntil: past, nextAttemptAt: past })
      .where(eq(webhookDeliveries.id, row.id));
    expect(await deliver(t)).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(hooks.at(teams.path)).toEqual([]);
    expect((await deliveriesOf(t, teams.id))[0]).toMatchObject({ status: 'failed', attempts: 2 });
    expect((await deliveriesOf(t, teams.id))[0].lastResponse).toMatch(
      /^The sender stopped while sending \(crash or shutdown\), so it may have arrived\. Not sent again: a teams message would show twice\.$/,
    );
  });
});

describe('answers', () => {
  it('a 4xx other than 408 and 429 is final: failed after one attempt; 408 and 429 are retried', async () => {
    const gone = await endpoint();
    const bad = await endpoint();
    const slow = await endpoint();
    const busy = await endpoint();
    hooks.answers.set(gone.path, [404]);
    hooks.answers.set(bad.path, [400]);
    hooks.answers.set(slow.path, [408, 200]);
    hooks.answers.set(busy.path, [429, 200]);
    await happen();
    expect(await deliver(t)).toEqual({ sent: 0, retried: 2, failed: 2 });
    expect((await deliveriesOf(t, gone.id))[0]).toMatchObject({ status: 'failed', attempts: 1, lastStatus: 404 });
    expect((await deliveriesOf(t, bad.id))[0]).toMatchObject({ status: 'failed', attempts: 1, lastStatus: 400 });
    expect(await deliver(t, 31 * SECONDS)).toEqual({ sent: 2, retried: 0, failed: 0 });
    expect(hooks.at(gone.path)).toHaveLength(1);
    expect(hooks.at(bad.path)).toHaveLength(1);
  });
});

describe('a claim', () => {
  it('is recorded only while it holds: a late answer after the delivery was taken again changes nothing', async () => {
    const e = await endpoint();
    hooks.answers.set(e.path, [{ status: 500, afterMs: 1500 }]);
    await happen();
    const [row] = await deliveriesOf(t, e.id);
    const first = deliver(t, 0, { timeoutMs: 5 * SECONDS });
    expect(await waitUntil(() => hooks.at(e.path).length === 1)).toBe(true);
    // Meanwhile its lease ran out, another runner sent it, an admin re-sent it (attempts start again) and a third
    // runner holds it now, at attempt 1 again: the same attempt count as the first runner's claim.
    const held = new Date(Date.now() + 90 * SECONDS);
    await t.db
      .update(webhookDeliveries)
      .set({ status: 'sending', attempts: 1, lockedUntil: held, nextAttemptAt: held, lastStatus: null })
      .where(eq(webhookDeliveries.id, row.id));
    // The first runner's 500 comes now: its claim is gone, so it is neither recorded nor counted.
    expect(await first).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect((await deliveriesOf(t, e.id))[0]).toMatchObject({
      status: 'sending',
      attempts: 1,
      lockedUntil: held,
      lastStatus: null,
    });
  });
});

describe('fairness', () => {
  it('a receiver that never answers holds 2 runners at most: other endpoints’ deliveries go out meanwhile', async () => {
    const dead = await endpoint({ events: ['server.created'] });
    const alive = await endpoint({ events: ['user.approved'] });
    hooks.answers.set(dead.path, ['hang']);
    // The dead endpoint's 10 come first in the claim order.
    const at = Date.now() - 60 * SECONDS;
    await t.db.transaction((tx) =>
      queueWebhookEvents(
        tx,
        Array.from({ length: 10 }, (_, i) => ({
          event: 'server.created' as const,
          data: { n: i },
          occurredAt: new Date(at + i),
        })),
      ),
    );
    await t.db.transaction((tx) =>
      queueWebhookEvents(
        tx,
        Array.from({ length: 3 }, (_, i) => ({ event: 'user.approved' as const, data: { n: i } })),
      ),
    );
    const stop = new AbortController();
    // No post times out while the test runs (a slow machine may take 20 s to get here): only the stop ends them.
    const run = deliver(t, 0, { timeoutMs: 300 * SECONDS, signal: stop.signal });
    try {
      expect(await waitUntil(() => hooks.at(alive.path).length === 3)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(hooks.at(dead.path)).toHaveLength(2);
      // Events that come while the dead receiver still holds its 2 go out in the same run, not after it.
      await happen();
      await happen();
      expect(await waitUntil(() => hooks.at(alive.path).length === 5, 3 * SECONDS)).toBe(true);
      expect(hooks.at(dead.path)).toHaveLength(2);
      const deadline = Date.now() + 3 * SECONDS;
      while ((await deliveriesOf(t, alive.id)).some((d) => d.status !== 'sent') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
    } finally {
      stop.abort();
    }
    // Stopped: the two posts in flight are ended and kept for a retry (JSON: same id).
    expect(await run).toEqual({ sent: 5, retried: 2, failed: 0 });
    const rows = await deliveriesOf(t, dead.id);
    expect(rows.filter((r) => r.status === 'pending' && r.attempts === 1)).toHaveLength(2);
    expect(rows.filter((r) => r.attempts === 1).every((r) => /Stopped while sending/.test(r.lastResponse ?? ''))).toBe(
      true,
    );
  });
});

describe('a run stopped while it takes a delivery', () => {
  it('gives the delivery back untried: nothing posted, no attempt counted, due at once', async () => {
    const json = await endpoint({ events: ['user.approved'] });
    await happen();
    const stop = new AbortController();
    // The clock is read just before each claim: the stop lands while the claim is being taken.
    const result = await deliver(t, 0, {
      signal: stop.signal,
      now: () => {
        stop.abort();
        return new Date();
      },
    });
    expect(result).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(hooks.at(json.path)).toHaveLength(0);
    const [row] = await deliveriesOf(t, json.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 0, lockedUntil: null });
    expect(await deliver(t)).toEqual({ sent: 1, retried: 0, failed: 0 });
  });
});

describe('the queue cap', () => {
  it(`beyond ${QUEUE_CAP} waiting, an endpoint's new events are dropped, counted on the list and logged once`, async () => {
    const full = await endpoint();
    const other = await endpoint();
    await t.db.execute(
      sql`insert into webhook_deliveries (endpoint_id, event, payload, next_attempt_at)
          select ${full.id}::uuid, 'server.created', '{}'::jsonb, now() + interval '1 hour'
          from generate_series(1, ${QUEUE_CAP})`,
    );
    expect(await happen({ n: 1 })).toBe(1);
    expect(await happen({ n: 2 })).toBe(1);
    expect((await deliveriesOf(t, other.id)).map((d) => d.payload)).toEqual([
      { user: { id: 'u' }, n: 1 },
      { user: { id: 'u' }, n: 2 },
    ]);
    const list = await api(t, admin, 'GET', '/api/admin/webhooks');
    const shown = (id: string) => list.body.find((e: { id: string }) => e.id === id);
    expect(shown(full.id)).toMatchObject({ pending: QUEUE_CAP, dropped: 2, droppedSince: expect.any(String) });
    expect(shown(other.id)).toMatchObject({ pending: 2, dropped: 0, droppedSince: null });
    // The count is no delivery: not listed, not re-sendable.
    const listed = await api(t, admin, 'GET', `/api/admin/webhooks/${full.id}/deliveries`);
    expect(listed.body.every((d: { status: string }) => d.status === 'pending')).toBe(true);
    const [counter] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, 'dropped'));
    expect((await api(t, admin, 'POST', `/api/admin/webhook-deliveries/${counter.id}/resend`)).status).toBe(404);
    const page = await (await t.app.request('/admin/webhooks', { headers: { Cookie: admin.cookie } })).text();
    expect(page).toContain('2 dropped');

    // The next delivery run logs it, once.
    const lines: string[] = [];
    const logger = createLogger('warn', { format: 'json', out: { write: (l: string) => lines.push(l) } });
    const run = () => runWebhookDeliveries({ db: t.db, config: t.config, logger }, { timeoutMs: 2 * SECONDS });
    expect(await run()).toEqual({ sent: 2, retried: 0, failed: 0 });
    const warnings = () => lines.map((l) => JSON.parse(l)).filter((l) => l.msg.startsWith('webhook queue full'));
    expect(warnings()).toEqual([
      expect.objectContaining({ endpoint: full.id, dropped: 2, total: 2, cap: QUEUE_CAP, level: 40 }),
    ]);
    await run();
    expect(warnings()).toHaveLength(1);
    await happen({ n: 3 });
    await run();
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1]).toMatchObject({ endpoint: full.id, dropped: 1, total: 3 });
    // Room again (deliveries sent or failed): new events are queued.
    await t.db.execute(
      sql`update webhook_deliveries set status = 'failed' where id = (
            select id from webhook_deliveries where endpoint_id = ${full.id}::uuid and status = 'pending' limit 1)`,
    );
    expect(await happen({ n: 4 })).toBe(2);
  });
});
