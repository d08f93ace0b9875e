import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import { queryRows, type Db } from '../db/client';
import { DEFAULT_TIMEZONE } from '../db/schema';
import type { Logger } from '../http/logger';
import { enqueueMail } from '../mail/service';
import { pushToUser } from '../notifications/service';
import { postWebhook, type WebhookOutcome } from '../http/webhook-post';
import { resolveTarget, targetPolicy } from '../servers/service';
import { formatDateTime } from '../ui/shared';
import { type AlertBatch, type AlertEvent, alertMail, alertPush, webhookBody } from './messages';
import { closeRecovered, queueRepeats } from './repeats';
import { type WebhookFormatName, ackPath, webhookFormatOf, webhookUrlProblem } from './shared';

/**
 * The delivery queue (alert_deliveries), run by the `alerts` job. Due deliveries of the same rule, kind and recipient
 * (a user, or the rule's webhook) go out as one message per run (a batch): 5,000 servers down at once under one
 * webhook rule is one post, not 5,000. E-mail is handed to the mail outbox in the transaction that marks its
 * deliveries sent (exactly once). Push and webhooks leave the building, so a batch is first marked 'sending' (attempt
 * counted, 5-minute lease) in its own committed statement; a 'sending' row whose lease ran out belongs to a runner that
 * died mid-send and is marked failed, never sent again: at most once. Failures known not to have reached the
 * receiver are retried with backoff. Batches are sent OUTBOUND_PARALLEL at a time.
 */

export interface AlertDeps {
  db: Db;
  config: Pick<Config, 'appUrl' | 'push' | 'alertWebhookHosts' | 'health'>;
  logger: Logger;
}

export interface AlertRunResult {
  repeats: number;
  closed: number;
  /** Deliveries (one per alert and recipient) by outcome; a batch counts each of its deliveries. */
  sent: number;
  retried: number;
  failed: number;
  /** Messages that left: e-mails queued, pushes and webhook posts made. */
  messages: number;
}

export const MAX_ATTEMPTS = 6;
export const LEASE_MS = 5 * 60_000;
/** Most deliveries one message covers (its text names only the first few, see messages.ts). */
export const BATCH_MAX = 10_000;
/** Push and webhook batches in flight at once. */
export const OUTBOUND_PARALLEL = 8;

/**
 * Claims take this transaction lock first: a claimer locks its batch row by row, so a second claimer running at the
 * same moment could take the rest of the same batch as a second message. One claim at a time (claims are short; the
 * sends run in parallel) keeps one batch one message, in one process or many.
 */
const CLAIM_LOCK = 7_301_024;
const takeClaimLock = (tx: Db) => tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);

/** 30 s × 2^(attempts-1), at most an hour. */
export const retryDelayMs = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1)) * 1000;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

interface Delivery {
  id: string;
  dedupeKey: string;
  kind: AlertEvent['kind'];
  channel: 'email' | 'push' | 'webhook';
  userId: string | null;
  attempts: number;
  alertId: string;
  openedAt: Date | string;
  serverId: string;
  name: string;
  address: string | null;
  environment: string;
  status: string;
  webhookUrl: string | null;
  webhookFormat: WebhookFormatName | null;
  email: string | null;
  firstName: string | null;
  accountStatus: string | null;
  timezone: string;
}

/** The deliveries with what their message needs: alert, server, rule and recipient. */
function loadDeliveries(db: Db, ids: string[]): Promise<Delivery[]> {
  if (!ids.length) return Promise.resolve([]);
  return queryRows<Delivery>(
    db,
    sql`select d.id, d.dedupe_key as "dedupeKey", d.kind, d.channel, d.user_id as "userId", d.attempts,
          a.id as "alertId", a.opened_at as "openedAt", s.id as "serverId", s.name,
          coalesce(s.ip_address, s.hostname) as address, s.environment, s.status,
          r.webhook_url as "webhookUrl", r.webhook_format as "webhookFormat",
          u.email, u.first_name as "firstName", u.account_status as "accountStatus",
          coalesce(p.timezone, ${DEFAULT_TIMEZONE}) as timezone
        from alert_deliveries d
        join alerts a on a.id = d.alert_id
        join servers s on s.id = a.server_id
        join alert_rules r on r.id = a.rule_id
        left join users u on u.id = d.user_id
        left join user_preferences p on p.user_id = d.user_id
        where d.id in (${idList(ids)})
        order by d.next_attempt_at, s.name`,
  );
}

function eventOf(d: Delivery, appUrl: string): AlertEvent {
  const down = d.kind !== 'recovered';
  return {
    kind: d.kind,
    repeat: Number(d.dedupeKey.split(':')[2] ?? 0),
    server: {
      id: d.serverId,
      name: d.name,
      address: d.address,
      environment: d.environment,
      status: down ? 'offline' : d.status === 'warning' ? 'warning' : 'online',
    },
    openedAt: new Date(d.openedAt),
    ackUrl: `${appUrl}${ackPath(d.alertId)}`,
    serverUrl: `${appUrl}/infrastructure/${d.serverId}`,
  };
}

/** One message's alerts (a batch is one rule, kind and recipient; the same alert is listed once). */
function batchOf(ds: Delivery[], appUrl: string): AlertBatch {
  const byAlert = new Map(ds.map((d) => [d.alertId, d]));
  return {
    kind: ds[0].kind,
    events: [...byAlert.values()].map((d) => eventOf(d, appUrl)),
    overviewUrl: `${appUrl}/infrastructure`,
  };
}

/**
 * The next batch: the oldest due pending delivery of the channel(s) and every due pending delivery of the same rule,
 * kind and recipient, locked (FOR UPDATE SKIP LOCKED: two runners never take the same delivery).
 */
const dueBatch = (now: Date, email: boolean) => sql`
  with head as (
    select a.rule_id, d.kind, d.user_id, d.channel from alert_deliveries d join alerts a on a.id = d.alert_id
    where ${email ? sql`d.channel = 'email'` : sql`d.channel <> 'email'`}
      and d.status = 'pending' and d.next_attempt_at <= ${ts(now)}
    order by d.next_attempt_at limit 1 for update of d skip locked)
  select d.id from alert_deliveries d
    join alerts a on a.id = d.alert_id
    join head h on h.rule_id = a.rule_id and h.kind = d.kind and h.channel = d.channel
      and h.user_id is not distinct from d.user_id
  where d.status = 'pending' and d.next_attempt_at <= ${ts(now)}
  order by d.next_attempt_at limit ${BATCH_MAX} for update of d skip locked`;

async function markSent(db: Db, ids: string[]) {
  await db.execute(
    sql`update alert_deliveries set status = 'sent', last_error = null, locked_until = null, sent_at = now()
        where id in (${idList(ids)}) and status in ('sending', 'pending')`,
  );
}

/** Failed deliveries: retried with backoff when `retry` and attempts are left, else failed; answers how many retry. */
async function markFailed(db: Db, ids: string[], error: string, retry: boolean, now: Date): Promise<number> {
  const again = retry ? sql`attempts < ${MAX_ATTEMPTS}` : sql`false`;
  const rows = await queryRows<{ status: string }>(
    db,
    sql`update alert_deliveries
        set status = case when ${again} then 'pending' else 'failed' end,
          last_error = ${error.slice(0, 1000)}, locked_until = null,
          next_attempt_at = case when ${again}
            then ${ts(now)} + least(3600, 30 * power(2, greatest(0, attempts - 1))) * interval '1 second'
            else next_attempt_at end
        where id in (${idList(ids)}) and status in ('sending', 'pending')
        returning status`,
  );
  return rows.filter((r) => r.status === 'pending').length;
}

/** One e-mail batch in one transaction: one message in the outbox, its deliveries marked sent; answers taken. */
async function deliverEmailBatch(deps: AlertDeps, now: Date, result: AlertRunResult): Promise<number> {
  return deps.db.transaction(async (tx) => {
    await takeClaimLock(tx);
    const ids = (await queryRows<{ id: string }>(tx, dueBatch(now, true))).map((r) => r.id);
    const ds = await loadDeliveries(tx, ids);
    if (!ds.length) return 0;
    await tx.execute(sql`update alert_deliveries set attempts = attempts + 1 where id in (${idList(ids)})`);
    const [d] = ds;
    if (d.accountStatus !== 'active' || !d.email) {
      await markFailed(tx, ids, 'The recipient is no longer an active user.', false, now);
      result.failed += ids.length;
      return ids.length;
    }
    const mail = alertMail(batchOf(ds, deps.config.appUrl), {
      firstName: d.firstName,
      since: (at) => formatDateTime(at, d.timezone),
      timeZone: d.timezone,
    });
    // One delivery keeps its own key; a batch's key is its deliveries' (the same batch is one mail, however often).
    const key =
      ds.length === 1 ? d.dedupeKey : `batch:${createHash('sha256').update(ids.sort().join(',')).digest('hex')}`;
    await enqueueMail(tx, { dedupeKey: `alert:${key}`, to: d.email, ...mail });
    await markSent(tx, ids);
    result.sent += ids.length;
    result.messages++;
    return ids.length;
  });
}

/** Takes the next due push or webhook batch: 'sending', one more attempt, leased; committed before the send. */
async function claimOutbound(db: Db, now: Date): Promise<string[]> {
  return db.transaction(async (tx) => {
    await takeClaimLock(tx);
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`update alert_deliveries
          set status = 'sending', attempts = attempts + 1, locked_until = ${ts(new Date(now.getTime() + LEASE_MS))}
          where id in (${dueBatch(now, false)})
          returning id`,
    );
    return rows.map((r) => r.id);
  });
}

async function sendPush(deps: AlertDeps, ds: Delivery[]): Promise<WebhookOutcome> {
  const [d] = ds;
  if (!deps.config.push) return { ok: false, retry: false, error: 'Push is not set up on this server (VAPID_*).' };
  if (d.accountStatus !== 'active' || !d.userId)
    return { ok: false, retry: false, error: 'The recipient is no longer an active user.' };
  const { targets, sent, notDelivered } = await pushToUser(deps, d.userId, alertPush(batchOf(ds, deps.config.appUrl)));
  if (!targets) return { ok: false, retry: false, error: 'The recipient has no browser subscribed to push.' };
  if (sent) return { ok: true, status: 201 };
  // Retried only when no push service can have taken it (a timeout or reset after sending may have delivered it).
  return notDelivered === targets
    ? { ok: false, retry: true, error: 'No push service accepted the message.' }
    : { ok: false, retry: false, error: 'No push service confirmed the message (it may have arrived): not retried.' };
}

async function sendWebhook(deps: AlertDeps, ds: Delivery[], timeoutMs?: number): Promise<WebhookOutcome> {
  const url = ds[0].webhookUrl ?? '';
  const problem = webhookUrlProblem(url, deps.config.alertWebhookHosts);
  if (problem) return { ok: false, retry: false, error: problem };
  const format = ds[0].webhookFormat ?? webhookFormatOf(url);
  const body = JSON.stringify(webhookBody(format, batchOf(ds, deps.config.appUrl)));
  const policy = targetPolicy(deps.config);
  const outcome = await postWebhook(url, body, {
    resolve: (host) => resolveTarget(host, policy),
    userAgent: 'OpsHub-Alerts/1',
    timeoutMs,
  });
  // An alert is sent at most once: a post that may have arrived is not sent again.
  return !outcome.ok && outcome.maybeDelivered ? { ...outcome, error: `${outcome.error} Not retried.` } : outcome;
}

/** Sends one claimed batch and records the outcome for each of its deliveries: sent, retried with backoff, or failed. */
async function deliverOutbound(
  deps: AlertDeps,
  ids: string[],
  opts: RunOptions & { now: Date },
  result: AlertRunResult,
) {
  const ds = await loadDeliveries(deps.db, ids);
  if (!ds.length) return;
  const channel = ds[0].channel;
  let outcome: WebhookOutcome;
  try {
    outcome = channel === 'push' ? await sendPush(deps, ds) : await sendWebhook(deps, ds, opts.webhookTimeoutMs);
  } catch (err) {
    // Thrown by our own code before or while sending: the send may have happened, so it is not retried.
    outcome = { ok: false, retry: false, error: err instanceof Error ? err.message : String(err) };
  }
  result.messages++;
  if (outcome.ok) {
    await markSent(deps.db, ids);
    result.sent += ids.length;
    return;
  }
  const retried = await markFailed(deps.db, ids, outcome.error, outcome.retry, opts.now);
  result.retried += retried;
  result.failed += ids.length - retried;
  deps.logger.warn({ deliveries: ids.length, channel, retried, error: outcome.error }, 'alert delivery failed');
}

/** Deliveries whose runner died mid-send: their message may have gone out, so they are failed, never resent. */
async function failAbandoned(db: Db, now: Date): Promise<number> {
  const rows = await queryRows(
    db,
    sql`update alert_deliveries set status = 'failed', locked_until = null,
          last_error = 'The sender stopped while sending (crash or shutdown); not sent again, so never twice.'
        where status = 'sending' and locked_until < ${ts(now)} returning id`,
  );
  return rows.length;
}

export interface RunOptions {
  now?: Date;
  signal?: AbortSignal;
  /** Most push and webhook messages (batches) in one run. */
  limit?: number;
  /** How long a webhook may take (tests shorten it); must stay well under LEASE_MS. */
  webhookTimeoutMs?: number;
}

/** Push and webhook batches, OUTBOUND_PARALLEL at a time, at most `limit` of them. */
async function deliverAllOutbound(deps: AlertDeps, opts: RunOptions & { now: Date }, result: AlertRunResult) {
  let left = opts.limit ?? 200;
  const worker = async () => {
    while (left > 0 && !opts.signal?.aborted) {
      left--;
      const ids = await claimOutbound(deps.db, opts.now);
      if (!ids.length) return;
      await deliverOutbound(deps, ids, opts, result);
    }
  };
  await Promise.all(Array.from({ length: OUTBOUND_PARALLEL }, worker));
}

/**
 * One run of the `alerts` job: abandoned sends failed, alerts of servers no longer offline closed, repeats queued,
 * every due delivery sent.
 */
export async function runAlerts(deps: AlertDeps, opts: RunOptions = {}): Promise<AlertRunResult> {
  const now = opts.now ?? new Date();
  const result: AlertRunResult = { repeats: 0, closed: 0, sent: 0, retried: 0, failed: 0, messages: 0 };
  result.failed += await failAbandoned(deps.db, now);
  result.closed = await closeRecovered(deps.db, now);
  result.repeats = await queueRepeats(deps.db, now);
  while (!opts.signal?.aborted && (await deliverEmailBatch(deps, now, result)) > 0);
  await deliverAllOutbound(deps, { ...opts, now }, result);
  return result;
}
