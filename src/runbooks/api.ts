import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { serversMentionedFor } from './mentions';
import { mentionsInput } from './schemas';

/** POST /api/servers/mentions: the servers an unsaved text names (the editor's suggestions), for anyone signed in. */
export function runbookApi() {
  const app = new Hono<AppEnv>();
  app.post('/api/servers/mentions', requireUser(), validate('json', mentionsInput), async (c) => {
    const { text, exclude } = c.req.valid('json');
    return c.json(await serversMentionedFor(c.var.deps.db, c.var.user!.id, text, exclude));
  });
  return app;
}
