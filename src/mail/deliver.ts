import { sql, type SQL } from 'drizzle-orm';
import type { Config } from '../config';
import { queryRows, type Db } from '../db/client';
import type { Logger } from '../http/logger';
import { mailSender, SMTP_TIMEOUTS, type SendMail, type SmtpTimeouts } from './transport';

export interface MailDeps {
  db: Db;
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>;
  logger: Logger;
}

export interface DeliverOptions {
  /** Most messages sent in one run. */
  limit?: number;
  /** Replaces the SMTP/file sender (tests). */
  send?: SendMail;
  /** How long a claim lasts (tests shorten it); must be longer than `smtpTimeouts.totalMs`. */
  leaseMs?: number;
  /** SMTP time limits (tests shorten them). */
  smtpTimeouts?: SmtpTimeouts;
}

export interface DeliveryResult {
  sent: number;
  failed: number;
  retried: number;
}

export const MAX_ATTEMPTS = 10;
const BASE_DELAY_S = 30;
const MAX_DELAY_S = 3600;
/**
 * A claimed message is its runner's for 15 minutes, three times the longest an SMTP send may take (transport.ts),
 * so a live send always ends while its runner still owns the message. Only the message of a runner that died
 * mid-send is taken over when its claim runs out (and may then reach the recipient twice: at least once).
 */
export const LEASE_MS = 15 * 60_000;

/** Seconds to wait before retrying after `attempts` failures: 30 s × 2^(attempts-1), capped at 1 h. */
export const retryDelaySeconds = (attempts: number) =>
  Math.min(MAX_DELAY_S, BASE_DELAY_S * 2 ** Math.max(0, attempts - 1));

interface Claimed {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attempts: number;
  claimToken: string;
}

/**
 * Claims the next due message for this runner (FOR UPDATE SKIP LOCKED) under a fresh claim token. One message
 * per claim, so the claim only has to outlast one send.
 */
async function claimNext(db: Db, leaseMs: number): Promise<Claimed | undefined> {
  const [msg] = await queryRows<Claimed>(
    db,
    sql`update mail_outbox
        set status = 'sending', claim_token = gen_random_uuid(), locked_until = now() + make_interval(secs => ${leaseMs / 1000})
        where id in (
          select id from mail_outbox
          where (status = 'pending' and next_attempt_at <= now()) or (status = 'sending' and locked_until < now())
          order by next_attempt_at
          limit 1
          for update skip locked)
        returning id, "to", subject, text, html, attempts, claim_token as "claimToken"`,
  );
  return msg;
}

/** Records the outcome if this runner still holds the claim; false if another runner took the message over. */
async function recordIfClaimed(db: Db, msg: Claimed, changes: SQL): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update mail_outbox set ${changes}, locked_until = null, claim_token = null
        where id = ${msg.id} and claim_token = ${msg.claimToken} returning id`,
  );
  return rows.length > 0;
}

const markSent = (db: Db, msg: Claimed) =>
  recordIfClaimed(db, msg, sql`status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null`);

/** Temporary failures are retried with backoff; a permanent one, or the 10th attempt, marks the message failed. */
async function markFailed(
  db: Db,
  msg: Claimed,
  error: string,
  permanent: boolean,
): Promise<'failed' | 'retried' | 'lost'> {
  const attempts = msg.attempts + 1;
  const final = permanent || attempts >= MAX_ATTEMPTS;
  const recorded = await recordIfClaimed(
    db,
    msg,
    sql`status = ${final ? 'failed' : 'pending'}, attempts = ${attempts}, last_error = ${error.slice(0, 1000)},
        next_attempt_at = now() + make_interval(secs => ${retryDelaySeconds(attempts)})`,
  );
  if (!recorded) return 'lost';
  return final ? 'failed' : 'retried';
}

/**
 * A 5xx reply to the recipient or to the message itself (e.g. "550 user unknown", "554 rejected as spam") will
 * not change on retry. Other 5xx replies (to the sender, or to the login) come from our own configuration and
 * are retried, so an operator can fix SMTP_URL or MAIL_FROM without losing mail.
 */
function isPermanent(err: unknown): boolean {
  const { responseCode, command } = (err ?? {}) as { responseCode?: number; command?: string };
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    (command === 'RCPT TO' || command === 'DATA')
  );
}

/** Sends one claimed message and records the outcome, unless another runner has taken the message over ('lost'). */
async function deliverOne(deps: MailDeps, send: SendMail, msg: Claimed): Promise<keyof DeliveryResult | 'lost'> {
  try {
    await send(msg);
    return (await markSent(deps.db, msg)) ? 'sent' : 'lost';
  } catch (err) {
    const permanent = isPermanent(err);
    const outcome = await markFailed(deps.db, msg, err instanceof Error ? err.message : String(err), permanent);
    if (outcome !== 'lost')
      deps.logger.warn({ err, mailId: msg.id, attempts: msg.attempts + 1, permanent, outcome }, 'mail delivery failed');
    return outcome;
  }
}

/**
 * Sends every due outbox message once; temporary failures are retried later with backoff (failed after 10 attempts),
 * permanent refusals are failed at once with the server's reply.
 */
export async function deliverDueMail(deps: MailDeps, opts: DeliverOptions = {}): Promise<DeliveryResult> {
  const leaseMs = opts.leaseMs ?? LEASE_MS;
  const smtpTimeouts = opts.smtpTimeouts ?? SMTP_TIMEOUTS;
  if (leaseMs <= smtpTimeouts.totalMs) throw new Error('The mail claim must last longer than an SMTP send may take.');
  const send = opts.send ?? mailSender(deps.config, deps.logger, smtpTimeouts);
  const result: DeliveryResult = { sent: 0, failed: 0, retried: 0 };
  for (let n = 0; n < (opts.limit ?? 50); n++) {
    const msg = await claimNext(deps.db, leaseMs);
    if (!msg) break;
    const outcome = await deliverOne(deps, send, msg);
    if (outcome === 'lost') {
      deps.logger.warn(
        { mailId: msg.id },
        'mail delivery: another runner took this message over before its result was recorded; result not recorded',
      );
    } else {
      result[outcome]++;
    }
  }
  return result;
}
