import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { notFound } from '../http/errors';
import { validate } from '../http/validate';
import { serverIdParam } from './history/inputs';
import { serverUptime } from './history/uptime';

/** GET /api/servers/{id}/uptime → { "24h", "7d", "30d", "90d" } in percent (null: no checks in the period). */
export function uptimeApi() {
  const app = new Hono<AppEnv>();
  // Whoever may read servers may read their uptime (every signed-in role).
  app.get('/api/servers/:id/uptime', requireUser(), validate('param', serverIdParam), async (c) => {
    const uptime = await serverUptime(c.var.deps.db, c.req.valid('param').id);
    if (!uptime) throw notFound('Server not found.');
    return c.json(uptime);
  });
  return app;
}
