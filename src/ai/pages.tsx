import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { requirePageUser } from '../http/session';
import { askInput } from './schemas';
import { ask, engineFor } from './service';
import { AiPage } from './views/AiPage';

const PAGE = { title: 'Ops AI', subtitle: 'Your intelligent infrastructure assistant' };

/** The /ai page; without JavaScript its form posts here and the answer is rendered on the server. */
export function aiPages() {
  const app = new Hono<AppEnv>();
  app.get('/ai', requirePageUser(), (c) => c.render(<AiPage />, PAGE));
  app.post('/ai', requirePageUser(), async (c) => {
    const form = z.object({ query: z.string().optional() }).parse(await c.req.parseBody());
    const input = askInput.safeParse({ query: form.query ?? '' });
    if (!input.success) return c.redirect('/ai', 303);
    const asker = { userId: c.var.user!.id, timeZone: c.var.user!.timezone };
    const result = await ask(
      c.var.deps.db,
      engineFor(c.var.deps.config, c.var.logger),
      asker,
      input.data,
      c.req.raw.signal,
    );
    return c.render(<AiPage exchange={{ query: input.data.query, ...result, at: new Date().toISOString() }} />, PAGE);
  });
  return app;
}
