import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import { queryRows, type Db } from '../db/client';
import type { Logger } from '../http/logger';
import { mailSender, type SendMail } from './transport';

export interface MailDeps {
  db: Db;
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>;
  logger: Logger;
}

export interface DeliverOptions {
  /** Most messages claimed in one run. */
  limit?: number;
  /** Replaces the SMTP/file sender (tests). */
  send?: SendMail;
}

export interface DeliveryResult {
  sent: number;
  failed: number;
  retried: number;
}

export const MAX_ATTEMPTS = 10;
const BASE_DELAY_S = 30;
const MAX_DELAY_S = 3600;
/** A claimed message is another worker's for this long; after that a crashed claim is taken over. */
const LOCK_SECONDS = 120;

/** Seconds to wait before retrying after `attempts` failures: 30 s × 2^(attempts-1), capped at 1 h. */
export const retryDelaySeconds = (attempts: number) => Math.min(MAX_DELAY_S, BASE_DELAY_S * 2 ** Math.max(0, attempts - 1));

interface Claimed {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attempts: number;
}

/** Claims due messages for this worker only (FOR UPDATE SKIP LOCKED), so concurrent workers never send one twice. */
async function claimDue(db: Db, limit: number): Promise<Claimed[]> {
  return queryRows<Claimed>(
    db,
    sql`update mail_outbox set status = 'sending', locked_until = now() + make_interval(secs => ${LOCK_SECONDS})
        where id in (
          select id from mail_outbox
          where (status = 'pending' and next_attempt_at <= now()) or (status = 'sending' and locked_until < now())
          order by next_attempt_at
          limit ${limit}
          for update skip locked)
        returning id, "to", subject, text, html, attempts`,
  );
}

async function markSent(db: Db, id: string) {
  await db.execute(sql`update mail_outbox set status = 'sent', sent_at = now(), attempts = attempts + 1, locked_until = null, last_error = null where id = ${id}`);
}

async function markFailed(db: Db, msg: Claimed, error: string): Promise<'failed' | 'retried'> {
  const attempts = msg.attempts + 1;
  const final = attempts >= MAX_ATTEMPTS;
  await db.execute(
    sql`update mail_outbox set status = ${final ? 'failed' : 'pending'}, attempts = ${attempts}, locked_until = null,
        last_error = ${error.slice(0, 1000)}, next_attempt_at = now() + make_interval(secs => ${retryDelaySeconds(attempts)})
        where id = ${msg.id}`,
  );
  return final ? 'failed' : 'retried';
}

/** Sends every due outbox message once; failures are retried later with backoff, and marked failed after 10 attempts. */
export async function deliverDueMail(deps: MailDeps, opts: DeliverOptions = {}): Promise<DeliveryResult> {
  const send = opts.send ?? mailSender(deps.config, deps.logger);
  const result: DeliveryResult = { sent: 0, failed: 0, retried: 0 };
  const claimed = await claimDue(deps.db, opts.limit ?? 50);
  for (const msg of claimed) {
    try {
      await send(msg);
      await markSent(deps.db, msg.id);
      result.sent++;
    } catch (err) {
      const outcome = await markFailed(deps.db, msg, err instanceof Error ? err.message : String(err));
      result[outcome]++;
      deps.logger.warn({ err, mailId: msg.id, attempts: msg.attempts + 1, outcome }, 'mail delivery failed');
    }
  }
  return result;
}
