import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookEndpoints } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { startWebhookListener, type WebhookRunOptions } from '../../src/webhooks/commands';
import { REKICK_WITHIN_MS } from '../../src/webhooks/listener';
import { queueWebhookEvent } from '../../src/webhooks/service';
import type { TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';
import type { Receiver } from './receiver';
import { deliver, deliveriesOf, endpointAt, closeWebhookWorld, openWebhookWorld } from './support';

/**
 * The web process's listener on its own (nothing here calls the job or a delivery run by hand, until the last step):
 * a retry due within the minute arrives at the receiver when it is due, not at the job's next minute; stop() ends
 * the posts in flight and records them (JSON: retried under the same id; chat: failed, never twice).
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

const endpoint = (body: Record<string, unknown> = {}) => endpointAt(t, admin, hooks, 'listen', body);

const listen = (opts: WebhookRunOptions = {}) =>
  startWebhookListener(t.database, { config: t.config, logger: createLogger('silent') }, opts);
const happen = () => t.db.transaction((tx) => queueWebhookEvent(tx, 'user.approved', { user: { id: 'u' } }));
const waitUntil = async (what: () => boolean, ms = 10 * SECONDS) => {
  const deadline = Date.now() + ms;
  while (!what() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return what();
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a retry due within the minute', () => {
  it('arrives when it is due: the listener kicks a run then, without the job', async () => {
    expect(REKICK_WITHIN_MS).toBe(60 * SECONDS);
    const e = await endpoint();
    hooks.answers.set(e.path, [500, 200]);
    // The first retry waits 1.5 s here (30 s in production, well inside the minute).
    const listener = await listen({ retryDelayMs: () => 1500 });
    try {
      await happen();
      expect(await waitUntil(() => hooks.at(e.path).length === 2)).toBe(true);
      // Its answer recorded before stopping (stop() would end a post still waiting for its answer).
      const deadline = Date.now() + 5 * SECONDS;
      while ((await deliveriesOf(t, e.id))[0].status !== 'sent' && Date.now() < deadline) await sleep(20);
    } finally {
      await listener.stop();
    }
    const [first, second] = hooks.at(e.path);
    const waited = second.at.getTime() - first.at.getTime();
    expect(waited).toBeGreaterThanOrEqual(1400);
    expect(waited).toBeLessThan(6 * SECONDS);
    expect(hooks.ids(e.path)).toHaveLength(1);
    expect((await deliveriesOf(t, e.id))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('stop() clears the timer: nothing more is sent by this process', async () => {
    const e = await endpoint();
    hooks.answers.set(e.path, [500, 200]);
    const listener = await listen({ retryDelayMs: () => 1000 });
    await happen();
    expect(await waitUntil(() => hooks.at(e.path).length === 1)).toBe(true);
    // Let the run record the 500 and set its timer, then stop.
    await waitUntil(() => false, 300);
    await listener.stop();
    await sleep(2000);
    expect(hooks.at(e.path)).toHaveLength(1);
  });
});

describe('stop()', () => {
  it('ends posts in flight at once: a JSON delivery is kept for a retry (same id), a Slack one failed', async () => {
    const json = await endpoint();
    const slack = await endpoint({ format: 'slack' });
    hooks.answers.set(json.path, ['hang', 200]);
    hooks.answers.set(slack.path, ['hang', 200]);
    const listener = await listen();
    await happen();
    expect(await waitUntil(() => hooks.at(json.path).length === 1 && hooks.at(slack.path).length === 1)).toBe(true);
    const started = Date.now();
    await listener.stop();
    expect(Date.now() - started).toBeLessThan(2 * SECONDS);
    const [j] = await deliveriesOf(t, json.id);
    const [s] = await deliveriesOf(t, slack.id);
    expect(j).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastResponse: 'Stopped while sending (shutdown): it may have arrived.',
    });
    expect(s).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastResponse:
        'Stopped while sending (shutdown): it may have arrived. Not sent again: a slack message would show twice.',
    });
    // Once due, the JSON one goes again under its id; the Slack one never.
    expect(await deliver(t, 31 * SECONDS)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(hooks.at(json.path).map((r) => r.headers['x-opshub-delivery'])).toEqual([j.id, j.id]);
    expect(hooks.at(slack.path)).toHaveLength(1);
  });
});
