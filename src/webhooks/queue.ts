import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import type { WebhookEvent } from '../db/schema/values';

/**
 * The outbox of outgoing webhooks: one webhook_deliveries row per event and matching endpoint, written in the
 * transaction of the change that is the event, by the code that made it (nothing is queued for a change that rolls
 * back, nothing is lost for one that commits). The job and the listener send them.
 *
 * An endpoint holds at most QUEUE_CAP deliveries still to send: a receiver that is down for days must not grow the
 * table without end. Events beyond it are dropped for that endpoint (others still get them) and counted in one
 * 'dropped' row per endpoint, which the page shows and the next delivery run logs a warning about (reportDrops).
 */

/** The channel a new delivery is announced on (at commit); listener.ts kicks a delivery run on it. */
export const WEBHOOK_CHANNEL = 'webhook_deliveries';

/** Most deliveries waiting (pending or being sent) per endpoint; new events beyond it are dropped for it. */
export const QUEUE_CAP = 10_000;

export interface QueuedEvent {
  event: WebhookEvent;
  /** The body's `data`. A top-level `path` ("/infrastructure/…") is also sent as `url` (APP_URL + path). */
  data: Record<string, unknown>;
  /** When it happened (default: the transaction's time). */
  occurredAt?: Date;
}

interface Dropped {
  endpointId: string;
  n: number;
  event: string;
}

/**
 * Queues events for every endpoint that wants them (its events list names the event, or is ["*"]) and has room
 * (QUEUE_CAP); answers how many deliveries were queued. One statement for any number of events (one more when some
 * are dropped); nothing is written when no endpoint wants them.
 */
export async function queueWebhookEvents(tx: Db, events: QueuedEvent[]): Promise<number> {
  if (!events.length) return 0;
  const list = events.map((e) => ({ event: e.event, data: e.data, at: e.occurredAt?.toISOString() ?? null }));
  const [result] = await queryRows<{ queued: number; dropped: Dropped[] | null }>(
    tx,
    sql`with wanted as (
          select w.id as endpoint_id, w.created_at as endpoint_at, x.e, x.n
          from jsonb_array_elements(${JSON.stringify(list)}::jsonb) with ordinality as x(e, n)
          join webhook_endpoints w on x.e->>'event' = any(w.events) or '*' = any(w.events)),
        room as (
          select t.endpoint_id, ${QUEUE_CAP} - (
            select count(*) from (
              select 1 from webhook_deliveries d
              where d.endpoint_id = t.endpoint_id and d.status in ('pending', 'sending') limit ${QUEUE_CAP}) q) as free
          from (select distinct endpoint_id from wanted) t),
        ranked as (
          select wanted.*, room.free, row_number() over (partition by wanted.endpoint_id order by wanted.n) as k
          from wanted join room using (endpoint_id)),
        queued as (
          insert into webhook_deliveries (endpoint_id, event, payload, occurred_at)
          select endpoint_id, e->>'event', e->'data', coalesce((e->>'at')::timestamptz, now())
          from ranked where k <= free
          order by n, endpoint_at
          returning id)
        select (select count(*) from queued)::int as queued,
          (select json_agg(json_build_object('endpointId', endpoint_id, 'n', dropped, 'event', event)) from (
            select endpoint_id, count(*)::int as dropped, (array_agg(e->>'event' order by n desc))[1] as event
            from ranked where k > free group by endpoint_id) o) as dropped`,
  );
  if (result.dropped?.length) await countDropped(tx, result.dropped);
  // Delivered by PostgreSQL when (and only if) the transaction commits; identical ones fold into one.
  if (result.queued) await tx.execute(sql`select pg_notify(${WEBHOOK_CHANNEL}, '')`);
  return result.queued;
}

/** Adds dropped events to each endpoint's 'dropped' row (made at the first drop; the oldest when two were made). */
async function countDropped(tx: Db, dropped: Dropped[]) {
  await tx.execute(
    sql`with d as (select * from json_to_recordset(${JSON.stringify(dropped)}::json)
                     as d("endpointId" uuid, n int, event text)),
        counter as (
          select distinct on (endpoint_id) id, endpoint_id from webhook_deliveries
          where status = 'dropped' and endpoint_id in (select "endpointId" from d)
          order by endpoint_id, created_at),
        counted as (
          update webhook_deliveries w
          set payload = jsonb_set(w.payload, '{dropped}', to_jsonb(coalesce((w.payload->>'dropped')::int, 0) + d.n)),
            event = d.event, last_attempt_at = now()
          from counter c join d on d."endpointId" = c.endpoint_id
          where w.id = c.id
          returning w.endpoint_id)
        insert into webhook_deliveries (endpoint_id, event, payload, status, last_attempt_at)
        select d."endpointId", d.event, jsonb_build_object('dropped', d.n, 'reported', 0), 'dropped', now() from d
        where d."endpointId" not in (select endpoint_id from counted)`,
  );
}

/** Drops not yet reported, per endpoint, marked reported (each is reported once, by whichever run sees it first). */
export function reportDrops(db: Db): Promise<{ endpointId: string; dropped: number; total: number }[]> {
  return queryRows(
    db,
    sql`with r as (
          select id, endpoint_id, (payload->>'dropped')::int as total, coalesce((payload->>'reported')::int, 0) as was
          from webhook_deliveries
          where status = 'dropped' and (payload->>'dropped')::int > coalesce((payload->>'reported')::int, 0)
          for update skip locked)
        update webhook_deliveries w set payload = w.payload || jsonb_build_object('reported', r.total)
        from r where w.id = r.id
        returning r.endpoint_id as "endpointId", r.total - r.was as dropped, r.total`,
  );
}

/** Queues one event for every endpoint that wants it (see queueWebhookEvents); pass the change's transaction. */
export const queueWebhookEvent = (
  tx: Db,
  event: WebhookEvent,
  data: Record<string, unknown>,
  occurredAt?: Date,
): Promise<number> => queueWebhookEvents(tx, [{ event, data, occurredAt }]);
