import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { analyticsStats } from './service';

/** GET /api/analytics/stats → {servers: {total}, documents: {total}}. */
export function dashboardApi() {
  const app = new Hono<AppEnv>();
  app.get('/api/analytics/stats', requireUser(), async (c) => c.json(await analyticsStats(c.var.deps.db, c.var.user)));
  return app;
}
