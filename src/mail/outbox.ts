import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

export interface OutgoingMail {
  /** Same key twice → one message. */
  dedupeKey: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Writes a message into the outbox; pass the transaction of the change that causes it. Duplicates are ignored. */
export async function enqueueMail(db: Db, mail: OutgoingMail): Promise<void> {
  await db
    .insert(mailOutbox)
    .values({ ...mail, status: 'pending', nextAttemptAt: sql`now()` })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey });
}
