import type { Database } from '../db/client';
import { listenTo } from './channel';
import { deliverDueMail, type DeliverOptions, type MailDeps } from './deliver';
import { coalescedRun } from './kick';
import { MAIL_CHANNEL } from './outbox';

/** How long stop() waits for a delivery run in progress before giving up on it. */
const STOP_WAIT_MS = 3_000;

export interface MailListener {
  /** Stops listening, then waits up to 3 s for a delivery run in progress. */
  stop(): Promise<void>;
}

/**
 * Sends outbox mail as soon as the transaction that queued it commits: listens on the mail channel (enqueueMail
 * notifies it) and runs one coalesced delivery per notification, plus one at start for mail left from before.
 * Every process that may send mail runs one; claims keep a message to one sender. The mail job remains the retry.
 */
export async function startMailListener(
  database: Database,
  deps: Omit<MailDeps, 'db'>,
  opts: DeliverOptions = {},
): Promise<MailListener> {
  const delivery = coalescedRun(() => deliverDueMail({ ...deps, db: database.db }, opts), deps.logger, 'mail delivery');
  const listening = await listenTo(database, MAIL_CHANNEL, () => delivery.kick(), deps.logger);
  return {
    async stop() {
      await listening.stop();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)));
      await Promise.race([delivery.settled(), timeout]);
      clearTimeout(timer);
    },
  };
}
