import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

/** The channel a new outbox message is announced on; listener.ts delivers on each announcement. */
export const MAIL_CHANNEL = 'mail_outbox';

export interface OutgoingMail {
  /** Same key twice → one message. */
  dedupeKey: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Writes a message into the outbox; pass the transaction of the change that causes it. Duplicates are ignored.
 * A new message also NOTIFYs the mail channel in the same transaction: PostgreSQL delivers the notification only
 * when that transaction commits (and drops it on rollback), to every listening process, and folds identical
 * notifications of one transaction into one, so each commit starts one delivery run.
 */
export async function enqueueMail(db: Db, mail: OutgoingMail): Promise<void> {
  const added = await db
    .insert(mailOutbox)
    .values({ ...mail, status: 'pending', nextAttemptAt: sql`now()` })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  if (added.length) await db.execute(sql`select pg_notify(${MAIL_CHANNEL}, '')`);
}
