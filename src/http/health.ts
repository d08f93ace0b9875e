import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { publicRoute } from './route-marks';

/** /readyz answers within this even when the database accepts connections but never replies. */
const READY_TIMEOUT_MS = 2_000;

/** Resolves when ping answers, rejects when it fails or takes longer than timeoutMs. */
async function answersWithin(ping: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error('no answer in time')), timeoutMs)),
  );
  try {
    await Promise.race([ping, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** /healthz: the process is up. /readyz: the database answers. */
export function healthRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/healthz', publicRoute(), (c) => c.json({ status: 'ok' }));
  app.get('/readyz', publicRoute(), async (c) => {
    const ping = c.var.deps.database.ping();
    ping.catch(() => {}); // a ping that fails after the deadline has nobody left to tell
    try {
      await answersWithin(ping, READY_TIMEOUT_MS);
      return c.json({ status: 'ready' });
    } catch {
      return c.json({ status: 'unavailable', message: 'The database does not answer.' }, 503);
    }
  });
  return app;
}
