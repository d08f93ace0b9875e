import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { webhookDeliveries } from '../../src/db/schema';
import { createLogger } from '../../src/http/logger';
import { runWebhookDeliveries, type WebhookRunOptions } from '../../src/webhooks/commands';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { type Receiver, startReceiver } from './receiver';

/** Webhook tests' helpers: the admin API, the queue as stored, and delivery runs (with a clock moved on). */

export const SECRET = 'a-test-secret-of-32-characters!!';

export async function api(t: TestContext, who: TestUser | null, method: string, path: string, body?: unknown) {
  const res = await t.app.request(path, jsonRequest(method, body, who?.cookie));
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Registers an endpoint (201 expected); answers it with its secret. */
export async function register(t: TestContext, admin: TestUser, body: Record<string, unknown>) {
  const res = await api(t, admin, 'POST', '/api/admin/webhooks', { secret: SECRET, events: ['*'], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as {
    id: string;
    url: string;
    secret: string;
    secretHint: string | null;
    events: string[];
    format: string;
  };
}

/** Registers an endpoint at a path of its own (`/{prefix}-{n}`) of the receiver, which then knows its secret. */
let serial = 0;
export async function endpointAt(
  t: TestContext,
  admin: TestUser,
  hooks: Receiver,
  prefix: string,
  body: Record<string, unknown> = {},
) {
  const path = `/${prefix}-${++serial}`;
  const made = await register(t, admin, { url: hooks.url(path), ...body });
  hooks.secrets.set(path, made.secret);
  return { ...made, path };
}

/** An endpoint's deliveries as stored, oldest first. */
export const deliveriesOf = async (t: TestContext, endpointId: string) =>
  (await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId))).sort(
    (a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime(),
  );

const logger = createLogger('silent');

/** One delivery run as the job makes it, `aheadMs` later than now (retries come due); short post timeout. */
export const deliver = (t: TestContext, aheadMs = 0, opts: WebhookRunOptions = {}) =>
  runWebhookDeliveries(
    { db: t.db, config: t.config, logger },
    { now: () => new Date(Date.now() + aheadMs), timeoutMs: 2_000, ...opts },
  );

/** What the delivery suites share: a loopback receiver, the app allowed to post to it, and an admin. */
export interface WebhookWorld {
  t: TestContext;
  hooks: Receiver;
  admin: TestUser;
}

export async function openWebhookWorld(): Promise<WebhookWorld> {
  const hooks = await startReceiver();
  const t = await createTestApp({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
  return { t, hooks, admin: await createSignedInUser(t.db, { role: 'admin' }) };
}

/** Closes what openWebhookWorld opened (either may be missing when it failed). */
export async function closeWebhookWorld(world: Partial<WebhookWorld>): Promise<void> {
  await world.hooks?.close();
  await world.t?.close();
}
