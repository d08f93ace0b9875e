import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { allow } from '../auth/policy';
import { embeddingProgress } from './embed-items';
import { embedder } from './endpoint';

/**
 * GET /api/admin/embeddings (those who may read the jobs): whether search by meaning is on, and how far the
 * backfill of the current model has come (items embedded, refused by the endpoint, still to go; chunks stored).
 */
export function embeddingsApi() {
  const app = new Hono<AppEnv>();
  app.get('/api/admin/embeddings', allow('jobs.read'), async (c) => {
    const endpoint = embedder();
    if (!endpoint) return c.json({ configured: false });
    return c.json({ configured: true, ...(await embeddingProgress(c.var.deps.db, endpoint.model)) });
  });
  return app;
}
