import type { Database } from '../src/db/client';
import { embedder, embedDueItems } from '../src/embeddings/service';
import type { Logger } from '../src/http/logger';
import { coalescedRun, listenTo } from '../src/mail/service';
import { withJobLock } from './lock';

/** Notified by the documents trigger of migration 0026 when a save that changed a title or text commits. */
export const EMBEDDINGS_CHANNEL = 'embeddings_due';
/** Items one woken run embeds at most (the job, every minute, does the rest of a large import). */
const ITEMS_PER_KICK = 50;

export interface EmbeddingsListener {
  stop(): Promise<void>;
}

/**
 * Embeds a saved item within seconds instead of at the job's next minute: listens for saves and runs the job's work
 * under the job's own advisory lock (so it never runs beside the job or another worker's listener; when the lock
 * is taken the job's run picks the item up). Where jobs run: every worker, or the web process with JOBS=inline.
 */
export async function startEmbeddingsListener(database: Database, logger: Logger): Promise<EmbeddingsListener> {
  const abort = new AbortController();
  const run = coalescedRun(
    async () => {
      const endpoint = embedder();
      if (!endpoint || abort.signal.aborted) return;
      const outcome = await withJobLock(database, 'embeddings', () =>
        embedDueItems(database.db, endpoint, { maxItems: ITEMS_PER_KICK, signal: abort.signal }),
      );
      if (outcome.acquired && outcome.value.failure)
        logger.warn({ failure: outcome.value.failure }, 'Embeddings after a save stopped early');
    },
    logger,
    'embeddings after a save',
  );
  const listening = await listenTo(database, EMBEDDINGS_CHANNEL, () => run.kick(), logger);
  return {
    async stop() {
      await listening.stop();
      abort.abort();
      await run.settled();
    },
  };
}
