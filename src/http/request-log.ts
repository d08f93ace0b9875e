import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';

/** One log line per request: id, method, path (never the query: it may hold tokens), status, duration. */
export const requestLog = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const start = performance.now();
  await next();
  const ms = Math.round((performance.now() - start) * 10) / 10;
  c.var.logger.info(
    { reqId: c.var.requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms },
    'request',
  );
};
