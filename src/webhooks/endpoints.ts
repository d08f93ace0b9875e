import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { webhookDeliveries, webhookEndpoints } from '../db/schema';
import type { HostsAndCidrs } from '../http/cidr-list';
import { badRequest, conflict, notFound } from '../http/errors';
import { enforce } from '../http/rate-limit';
import { webhookFormatOf } from '../http/webhook-url';
import { WEBHOOK_CHANNEL } from './queue';
import type { EndpointInput } from './schemas';
import { MAX_ENDPOINTS, secretHint, shownUrl, type WebhookEvent, type WebhookFormat } from './shared';
import { targetProblem } from './targets';

/** Webhook endpoints as admins keep them (every change audited), and their deliveries as the page and API show them. */

export interface WebhookEndpoint {
  id: string;
  /** As shown: a Slack or Teams URL (its path is its secret) as its host and "…" (see shownUrl). */
  url: string;
  events: (WebhookEvent | '*')[];
  format: WebhookFormat;
  /** The secret's last characters when it is long enough to spare them (null: none shown); never the secret. */
  secretHint: string | null;
  createdAt: string;
  /** Deliveries by state. */
  pending: number;
  failed: number;
  /** Events not queued because QUEUE_CAP deliveries were already waiting, since `droppedSince`. */
  dropped: number;
  droppedSince: string | null;
  /** The newest delivery's state and the receiver's last status code. */
  last: { status: string; lastStatus: number | null; at: string } | null;
}

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  event: WebhookEvent;
  status: string;
  attempts: number;
  occurredAt: string;
  nextAttemptAt: string;
  lastAttemptAt: string | null;
  sentAt: string | null;
  /** The receiver's last status code (null: no answer came). */
  lastStatus: number | null;
  /** The start of its last answer, or why there was none. */
  lastResponse: string | null;
  payload: Record<string, unknown>;
}

/** Advisory-lock key of registrations (webhook claims use 7_325_101). */
const REGISTRATION_LOCK = 7_325_102;

/** Registrations (each may look a host up) and re-sends (each posts) per admin. */
const throttle = (db: Db, actorId: string) =>
  enforce(
    db,
    [{ key: `webhooks:${actorId}`, limit: 60, windowSeconds: 60 }],
    'Too many webhook changes; wait a minute.',
  );

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  endpointId: r.endpointId,
  event: r.event,
  status: r.status,
  attempts: r.attempts,
  occurredAt: iso(r.occurredAt)!,
  nextAttemptAt: iso(r.nextAttemptAt)!,
  lastAttemptAt: iso(r.lastAttemptAt),
  sentAt: iso(r.sentAt),
  lastStatus: r.lastStatus,
  lastResponse: r.lastResponse,
  payload: r.payload,
});

/**
 * The listed endpoint's id inside the figures' subqueries, qualified: drizzle writes a column of the selected table
 * unqualified ("id"), which inside `from webhook_deliveries d` would be the delivery's own id.
 */
const OUTER_ID = sql.raw('"webhook_endpoints"."id"');

/** Every endpoint, oldest first, with its queue figures and its newest delivery. */
export async function listEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  const rows = await db
    .select({
      endpoint: webhookEndpoints,
      pending: sql<number>`(select count(*) from webhook_deliveries d where d.endpoint_id = ${OUTER_ID} and d.status in ('pending', 'sending'))`,
      failed: sql<number>`(select count(*) from webhook_deliveries d where d.endpoint_id = ${OUTER_ID} and d.status = 'failed')`,
      dropped: sql<{ n: number; since: string } | null>`(
        select json_build_object('n', sum((d.payload->>'dropped')::int), 'since', min(d.created_at))
        from webhook_deliveries d where d.endpoint_id = ${OUTER_ID} and d.status = 'dropped'
        having count(*) > 0)`,
      last: sql<{ status: string; lastStatus: number | null; at: string } | null>`(
        select json_build_object('status', d.status, 'lastStatus', d.last_status, 'at', d.created_at)
        from webhook_deliveries d where d.endpoint_id = ${OUTER_ID} and d.status <> 'dropped'
        order by d.created_at desc limit 1)`,
    })
    .from(webhookEndpoints)
    .orderBy(webhookEndpoints.createdAt);
  return rows.map(({ endpoint: e, pending, failed, dropped, last }) => ({
    id: e.id,
    url: shownUrl(e.url, e.format),
    events: e.events,
    format: e.format,
    secretHint: secretHint(e.secret),
    createdAt: iso(e.createdAt)!,
    pending: Number(pending),
    failed: Number(failed),
    dropped: Number(dropped?.n ?? 0),
    droppedSince: dropped ? iso(dropped.since) : null,
    last: last ? { ...last, at: iso(last.at)! } : null,
  }));
}

/** One endpoint, or a 404. */
export async function getEndpoint(db: Db, id: string): Promise<WebhookEndpoint> {
  const found = (await listEndpoints(db)).find((e) => e.id === id);
  if (!found) throw notFound('Webhook not found.');
  return found;
}

/**
 * Registers an endpoint: the URL must be an allowed target (WEBHOOK_ALLOW_HOSTS, 400 otherwise); the secret is made
 * when none is given. Answers the endpoint with its secret, the one time it is shown.
 */
export async function createEndpoint(
  db: Db,
  input: EndpointInput,
  actorId: string,
  allow: HostsAndCidrs,
): Promise<WebhookEndpoint & { secret: string }> {
  await throttle(db, actorId);
  const problem = await targetProblem(input.url, allow);
  if (problem) throw badRequest(problem, 'validation_error');
  const secret = input.secret || randomBytes(32).toString('hex');
  const format = input.format ?? webhookFormatOf(input.url);
  const id = await db.transaction(async (tx) => {
    // One registration at a time, so two at once cannot both pass the count.
    await tx.execute(sql`select pg_advisory_xact_lock(${REGISTRATION_LOCK})`);
    const [{ n }] = await tx.select({ n: count() }).from(webhookEndpoints);
    if (n >= MAX_ENDPOINTS) throw conflict(`At most ${MAX_ENDPOINTS} webhooks; delete one first.`, 'too_many');
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ url: input.url, secret, events: input.events, format, createdBy: actorId })
      .returning({ id: webhookEndpoints.id });
    await recordAudit(tx, {
      actorId,
      action: 'webhook.created',
      entityType: 'webhook',
      entityId: row.id,
      details: { host: new URL(input.url).host, events: input.events, format },
    });
    return row.id;
  });
  return { ...(await getEndpoint(db, id)), secret };
}

/** Deletes an endpoint; its queued deliveries go with it (nothing more is sent to it). */
export async function deleteEndpoint(db: Db, id: string, actorId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning();
    if (!row) throw notFound('Webhook not found.');
    await recordAudit(tx, {
      actorId,
      action: 'webhook.deleted',
      entityType: 'webhook',
      entityId: id,
      details: { host: URL.canParse(row.url) ? new URL(row.url).host : row.url },
    });
  });
}

/** Most deliveries one list shows. */
export const DELIVERIES_SHOWN = 100;

/** An endpoint's newest deliveries (404 when there is no such endpoint). */
export async function listDeliveries(db: Db, endpointId: string, limit = DELIVERIES_SHOWN): Promise<WebhookDelivery[]> {
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, endpointId));
  if (!endpoint) throw notFound('Webhook not found.');
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), ne(webhookDeliveries.status, 'dropped')))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.occurredAt))
    .limit(limit);
  return rows.map(toDelivery);
}

/**
 * Sends a delivery again, with the same id (X-OpsHub-Delivery), as soon as a runner takes it: due now, with a fresh
 * count of attempts. 409 while it is being sent.
 */
export async function resendDelivery(db: Db, id: string, actorId: string): Promise<WebhookDelivery> {
  await throttle(db, actorId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, id), ne(webhookDeliveries.status, 'dropped')))
      .for('update');
    if (!row) throw notFound('Delivery not found.');
    if (row.status === 'sending') throw conflict('This delivery is being sent right now.', 'sending');
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lockedUntil: null })
      .where(eq(webhookDeliveries.id, id))
      .returning();
    await recordAudit(tx, {
      actorId,
      action: 'webhook.resent',
      entityType: 'webhook',
      entityId: row.endpointId,
      details: { deliveryId: id, event: row.event, previousStatus: row.status },
    });
    await tx.execute(sql`select pg_notify(${WEBHOOK_CHANNEL}, '')`);
    return toDelivery(updated);
  });
}
