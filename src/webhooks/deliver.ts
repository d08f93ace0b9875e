import { createHmac, randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import { queryRows, type Db } from '../db/client';
import type { Logger } from '../http/logger';
import { postWebhook, WEBHOOK_TIMEOUT_MS, type WebhookOutcome } from '../http/webhook-post';
import { deliveryBody } from './messages';
import { QUEUE_CAP, reportDrops } from './queue';
import { ANSWER_CHARS, type WebhookEvent, type WebhookFormat } from './shared';
import { urlProblem, vetHost } from './targets';

/**
 * Sends the queued deliveries (webhook_deliveries), run by the `webhooks` job every minute and kicked after each
 * commit that queues one (listener.ts, which also kicks again when a retry comes due within the minute). A runner
 * claims one due delivery at a time ('sending', one more attempt, leased until LEASE_MS from now under a random claim
 * token; FOR UPDATE SKIP LOCKED under a transaction lock, so two runners in any number of processes never take the
 * same one), posts it signed, and records the answer only while its claim holds (the token still matches).
 * - JSON receivers get it at least once, with a stable id (X-OpsHub-Delivery) they dedupe on: anything that may have
 *   arrived (no answer after sending, a reset, a runner that died mid-send or was stopped) is sent again.
 * - Slack and Teams receivers dedupe on nothing, so what may have arrived is failed, never sent twice (as alert
 *   webhooks do, src/alerts/deliver.ts).
 * A 2xx is sent; 408, 429, 5xx and failures before the request left are retried with backoff (30 s, then doubling,
 * at most an hour) until MAX_ATTEMPTS; any other answer (a 4xx: the receiver will not take it) fails at once.
 * Fairness: at most PER_ENDPOINT posts in flight per endpoint, so a dead receiver holds 2 of the PARALLEL runners,
 * not all of them; each post within TIMEOUT_MS (connecting within CONNECT_TIMEOUT_MS of it).
 */

export interface WebhookDeps {
  db: Db;
  config: Pick<Config, 'appUrl' | 'webhookAllowHosts'>;
  logger: Logger;
}

export interface WebhookRunOptions {
  /** The clock (tests move it on to reach retries). */
  now?: () => Date;
  /** Stops the run: posts in flight are ended and recorded as stopped (retried for JSON, failed for chat). */
  signal?: AbortSignal;
  /** Most deliveries one run sends. */
  limit?: number;
  /** A run starts no post after this long. */
  budgetMs?: number;
  /** How long one post may take. */
  timeoutMs?: number;
  /** How long connecting may take. */
  connectTimeoutMs?: number;
  /** The wait before attempt n+1 (tests shorten it; default retryDelayMs). */
  retryDelayMs?: (attempts: number) => number;
}

export interface WebhookRunResult {
  sent: number;
  retried: number;
  failed: number;
}

export const MAX_ATTEMPTS = 12;
export const LEASE_MS = 2 * 60_000;
export const PARALLEL = 8;
/** Posts in flight per endpoint at most. */
export const PER_ENDPOINT = 2;
export const TIMEOUT_MS = WEBHOOK_TIMEOUT_MS;
/** How often a runner with nothing to take looks again while another one still waits on a receiver. */
const IDLE_POLL_MS = 500;
const CLAIM_LOCK = 7_325_101;

/** Before attempt n+1: 30 s × 2^(n-1), at most an hour (30 s, 1 min, 2 min … 1 h; 12 attempts span about 5 h). */
export const retryDelayMs = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1)) * 1000;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * A claim's token: its lease end, moved on by a random part of a second, in microseconds (timestamptz keeps them).
 * Stored as locked_until, it tells this claim from any later one of the same delivery (a re-send starts attempts
 * again, so the attempt count cannot).
 */
function claimToken(leaseEnd: Date): string {
  const at = new Date(leaseEnd.getTime() + randomInt(1000));
  return `${at.toISOString().slice(0, -1)}${String(randomInt(1000)).padStart(3, '0')}Z`;
}

interface Claimed {
  id: string;
  event: WebhookEvent;
  payload: Record<string, unknown>;
  occurredAt: Date | string;
  attempts: number;
  url: string;
  secret: string;
  format: WebhookFormat;
  /** The status it was claimed from: 'sending' when its last runner died mid-send (the lease ran out). */
  was: 'pending' | 'sending';
  token: string;
}

/**
 * Takes the next due delivery: the earliest of each endpoint's first due one (pending and due, or 'sending' with its
 * lease run out: its runner died) among the endpoints with fewer than PER_ENDPOINT posts in flight. The claim moves
 * next_attempt_at to the lease's end, so one index (endpoint, next_attempt_at) finds both kinds.
 */
async function claim(db: Db, now: Date): Promise<Claimed | null> {
  const token = claimToken(new Date(now.getTime() + LEASE_MS));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
    const [row] = await queryRows<Omit<Claimed, 'token'>>(
      tx,
      sql`with pick as (
            select q.id, q.status from webhook_endpoints e
            cross join lateral (
              select id, status, next_attempt_at, occurred_at from webhook_deliveries
              where endpoint_id = e.id and status in ('pending', 'sending') and next_attempt_at <= ${ts(now)}
              order by next_attempt_at, occurred_at limit 1 for update skip locked) q
            where (select count(*) from webhook_deliveries s
                   where s.endpoint_id = e.id and s.status = 'sending' and s.locked_until > ${ts(now)}) < ${PER_ENDPOINT}
            order by q.next_attempt_at, q.occurred_at limit 1)
          update webhook_deliveries d
          set status = 'sending', attempts = d.attempts + 1, locked_until = ${token}::timestamptz,
            next_attempt_at = ${token}::timestamptz, last_attempt_at = ${ts(now)}
          from pick, webhook_endpoints e
          where d.id = pick.id and e.id = d.endpoint_id
          returning d.id, d.event, d.payload, d.occurred_at as "occurredAt", d.attempts, e.url, e.secret, e.format,
            pick.status as was`,
    );
    return row ? { ...row, token } : null;
  });
}

/**
 * Gives back a claim taken as the run was being stopped, untried: its status as it was, the attempt not counted, due
 * now (another process, or this one's next run, sends it).
 */
async function release(db: Db, d: Claimed, now: Date): Promise<void> {
  await db.execute(
    sql`update webhook_deliveries
        set status = ${d.was}, attempts = attempts - 1, locked_until = null, next_attempt_at = ${ts(now)}
        where id = ${d.id} and status = 'sending' and locked_until = ${d.token}::timestamptz`,
  );
}

/** When the next delivery still to send comes due (null: none waits). */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const [row] = await queryRows<{ at: Date | string | null }>(
    db,
    sql`select min(q.next_attempt_at) as at from webhook_endpoints e
        cross join lateral (
          select next_attempt_at from webhook_deliveries
          where endpoint_id = e.id and status in ('pending', 'sending')
          order by next_attempt_at limit 1) q`,
  );
  return row?.at ? new Date(row.at) : null;
}

/** The headers that sign a body: HMAC-SHA256(secret, timestamp + "." + body), hex. */
export function signatureHeaders(d: { id: string; event: string; secret: string }, body: string, at: Date) {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac('sha256', d.secret).update(`${timestamp}.${body}`).digest('hex');
  return {
    'X-OpsHub-Event': d.event,
    'X-OpsHub-Delivery': d.id,
    'X-OpsHub-Timestamp': timestamp,
    'X-OpsHub-Signature': `sha256=${signature}`,
  };
}

async function send(deps: WebhookDeps, d: Claimed, opts: WebhookRunOptions): Promise<WebhookOutcome> {
  if (d.was === 'sending' && d.format !== 'json')
    return {
      ok: false,
      retry: false,
      maybeDelivered: true,
      error: 'The sender stopped while sending (crash or shutdown), so it may have arrived.',
    };
  const allow = deps.config.webhookAllowHosts;
  // WEBHOOK_ALLOW_HOSTS may have changed since the endpoint was registered: nothing else is called.
  const problem = urlProblem(d.url, allow);
  if (problem) return { ok: false, retry: false, refused: true, error: problem };
  const message = { id: d.id, event: d.event, occurredAt: new Date(d.occurredAt), data: d.payload };
  const body = deliveryBody(d.format, message, deps.config.appUrl);
  return postWebhook(d.url, body, {
    resolve: (host) => vetHost(host, allow),
    // Signed at the real time of sending (the run's clock only schedules).
    headers: signatureHeaders(d, body, new Date()),
    userAgent: 'OpsHub-Webhooks/1',
    timeoutMs: opts.timeoutMs ?? TIMEOUT_MS,
    connectTimeoutMs: opts.connectTimeoutMs,
    signal: opts.signal,
    keepAnswer: ANSWER_CHARS,
  });
}

/** Whether a failure is tried again: what surely did not arrive, and what may have for receivers that dedupe. */
const worthRetrying = (d: Claimed, outcome: WebhookOutcome & { ok: false }) =>
  outcome.retry || (!!outcome.maybeDelivered && d.format === 'json');

/**
 * Records an attempt's outcome while the claim holds (its token still matches: not lost to another runner after its
 * lease ran out, nor to a re-send); null when it was lost.
 */
async function record(
  db: Db,
  d: Claimed,
  outcome: WebhookOutcome,
  now: Date,
  delay: (attempts: number) => number,
): Promise<'sent' | 'retried' | 'failed' | null> {
  const again = !outcome.ok && worthRetrying(d, outcome) && d.attempts < MAX_ATTEMPTS;
  const status = outcome.ok ? 'sent' : again ? 'pending' : 'failed';
  let answer = outcome.ok ? (outcome.answer ?? '') : outcome.answer || outcome.error;
  if (!outcome.ok && outcome.maybeDelivered && d.format !== 'json')
    answer = `${outcome.error} Not sent again: a ${d.format} message would show twice.`;
  const next = again ? new Date(now.getTime() + delay(d.attempts)) : now;
  const rows = await queryRows(
    db,
    sql`update webhook_deliveries
        set status = ${status}, locked_until = null, next_attempt_at = ${ts(next)},
          last_status = ${outcome.status ?? null}, last_response = ${answer.slice(0, ANSWER_CHARS)},
          sent_at = ${outcome.ok ? ts(now) : null}
        where id = ${d.id} and status = 'sending' and locked_until = ${d.token}::timestamptz
        returning id`,
  );
  if (!rows.length) return null;
  return outcome.ok ? 'sent' : again ? 'retried' : 'failed';
}

/** Sends one claimed delivery and records the outcome (counted unless the claim was lost meanwhile). */
async function deliverOne(
  deps: WebhookDeps,
  d: Claimed,
  opts: WebhookRunOptions,
  clock: () => Date,
  result: WebhookRunResult,
) {
  let outcome: WebhookOutcome;
  try {
    outcome = await send(deps, d, opts);
  } catch (err) {
    // Thrown while sending: it may have left.
    const error = err instanceof Error ? err.message : String(err);
    outcome = { ok: false, retry: false, maybeDelivered: true, error };
  }
  const done = await record(deps.db, d, outcome, clock(), opts.retryDelayMs ?? retryDelayMs);
  if (done) result[done]++;
  if (!outcome.ok)
    deps.logger.warn(
      { delivery: d.id, event: d.event, attempts: d.attempts, error: outcome.error, outcome: done ?? 'claim lost' },
      'webhook delivery failed',
    );
}

/** Waits `ms`, or less when the signal aborts. */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * One run: due deliveries, PARALLEL at a time, until none is due (and no runner is still posting), `limit` are sent,
 * the budget is spent or stop.
 */
export async function runWebhookDeliveries(deps: WebhookDeps, opts: WebhookRunOptions = {}): Promise<WebhookRunResult> {
  const clock = opts.now ?? (() => new Date());
  const result: WebhookRunResult = { sent: 0, retried: 0, failed: 0 };
  for (const d of await reportDrops(deps.db))
    deps.logger.warn(
      { endpoint: d.endpointId, dropped: d.dropped, total: d.total, cap: QUEUE_CAP },
      'webhook queue full: new events for this endpoint were dropped',
    );
  const endBy = Date.now() + (opts.budgetMs ?? 45_000);
  let left = opts.limit ?? 1000;
  let busy = 0;
  const runner = async () => {
    while (left > 0 && !opts.signal?.aborted && Date.now() < endBy) {
      left--;
      const d = await claim(deps.db, clock());
      if (d && opts.signal?.aborted) {
        await release(deps.db, d, clock()); // stopped while it was being taken
        return;
      }
      if (!d) {
        left++;
        // Nothing may be taken now. While another runner still waits on a slow receiver (which keeps its endpoint's
        // share), what other endpoints get meanwhile is taken in this run, not after it: look again shortly.
        if (!busy) return;
        await pause(IDLE_POLL_MS, opts.signal);
        continue;
      }
      busy++;
      try {
        await deliverOne(deps, d, opts, clock, result);
      } finally {
        busy--;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, runner));
  return result;
}
