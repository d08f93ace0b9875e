import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { searchQuery } from './schemas';
import { search } from './service';

/** GET /api/search?q=&limit=8: ranked knowledge items, documents and servers. */
export function searchApi() {
  const app = new Hono<AppEnv>();
  app.get('/api/search', requireUser(), validate('query', searchQuery), async (c) => {
    const { q, limit } = c.req.valid('query');
    return c.json(await search(c.var.deps.db, c.var.user, q, limit));
  });
  return app;
}
