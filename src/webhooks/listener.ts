import type { Database } from '../db/client';
import { coalescedRun, listenTo } from '../mail/service';
import { nextDueAt, runWebhookDeliveries, type WebhookDeps, type WebhookRunOptions } from './deliver';
import { WEBHOOK_CHANNEL } from './queue';

/** How long stop() waits for a delivery run in progress before giving up on it. */
const STOP_WAIT_MS = 3_000;
/** A retry due within this long is kicked by this process; later ones are the job's (it runs every minute). */
export const REKICK_WITHIN_MS = 60_000;
/** A kick waits at least this long (a delivery due now that the run could not take waits on another process). */
const REKICK_MIN_MS = 1_000;

export interface WebhookListener {
  /** Stops listening and the retry timer, ends posts in flight, then waits up to 3 s for the run to record them. */
  stop(): Promise<void>;
}

/**
 * Sends webhooks as soon as the transaction that queued them commits: listens on the webhook channel (queue.ts
 * notifies it) and runs one coalesced delivery per notification, plus one at start. After each run, when a delivery
 * comes due within the minute (a first retry, 30 s on), a timer (not keeping the process alive) kicks a run then,
 * so it does not wait for the once-a-minute job. Every web process runs one; claims keep a delivery to one runner.
 */
export async function startWebhookListener(
  database: Database,
  deps: Omit<WebhookDeps, 'db'>,
  opts: WebhookRunOptions = {},
): Promise<WebhookListener> {
  const abort = new AbortController();
  const db = database.db;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  const kickAt = (at: number) => {
    if (abort.signal.aborted || (timer && timerAt <= at)) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      run.kick();
    }, at - Date.now());
    timer.unref();
  };
  const run = coalescedRun(
    async () => {
      await runWebhookDeliveries({ ...deps, db }, { ...opts, signal: abort.signal });
      if (abort.signal.aborted) return;
      const due = await nextDueAt(db);
      if (!due) return;
      const at = Math.max(due.getTime(), Date.now() + REKICK_MIN_MS);
      if (at - Date.now() <= REKICK_WITHIN_MS) kickAt(at);
    },
    deps.logger,
    'webhook delivery',
  );
  const listening = await listenTo(database, WEBHOOK_CHANNEL, () => run.kick(), deps.logger);
  return {
    async stop() {
      await listening.stop();
      abort.abort();
      clearTimeout(timer);
      let wait: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (wait = setTimeout(resolve, STOP_WAIT_MS)));
      await Promise.race([run.settled(), timeout]);
      clearTimeout(wait);
    },
  };
}
