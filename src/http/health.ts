import { Hono } from 'hono';
import type { AppEnv } from '../app-env';

/** /healthz: the process is up. /readyz: the database answers. */
export function healthRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await c.var.deps.database.ping();
      return c.json({ status: 'ready' });
    } catch {
      return c.json({ status: 'unavailable', message: 'The database does not answer.' }, 503);
    }
  });
  return app;
}
