import { embedder, embeddingProgress, embedDueItems } from '../src/embeddings/service';
import { defineJob } from './define-job';

/**
 * Retrieval by meaning: embeds the items saved since their last run, new ones, and (after EMBEDDINGS_MODEL
 * changed) all of them again, up to 500 items a run; the summary is the backfill's progress. Off without
 * EMBEDDINGS_BASE_URL. An endpoint that is down leaves the rest for the next run, with a warning.
 */
export const embeddingsJob = defineJob({
  name: 'embeddings',
  title: 'Embeddings (search by meaning)',
  schedule: (config) => config.schedules.embeddings,
  async run({ db, logger, signal }) {
    const endpoint = embedder();
    if (!endpoint) return 'Not configured: set EMBEDDINGS_BASE_URL to search by meaning.';
    const run = await embedDueItems(db, endpoint, { signal });
    const p = await embeddingProgress(db, endpoint.model);
    if (run.failure) logger.warn({ model: endpoint.model, failure: run.failure }, 'Embeddings run stopped early');
    const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`;
    const done = `Embedded ${items(run.embedded)}${run.refused ? `, refused ${run.refused}` : ''}`;
    const progress = `${p.embedded} of ${items(p.items)} embedded by ${endpoint.model}, ${p.pending} to go`;
    return `${done}. ${progress}.${run.failure ? ` Stopped: ${run.failure}` : ''}`;
  },
});
