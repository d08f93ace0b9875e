import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { requirePageUser } from '../auth/policy';
import { checkForm, formValues } from '../http/form';
import { askInput } from './schemas';
import { ask, engineFor } from './service';
import { AiPage } from './views/AiPage';

const PAGE = { title: 'Ops AI', subtitle: 'Your intelligent infrastructure assistant' };

/** The /ai page; without JavaScript its form posts here and the answer is rendered on the server. */
export function aiPages() {
  const app = new Hono<AppEnv>();
  app.get('/ai', requirePageUser(), (c) => c.render(<AiPage />, PAGE));
  app.post('/ai', requirePageUser(), async (c) => {
    // Only the question: the page's form has no conversation history.
    const input = checkForm(askInput, { query: (await formValues(c)).query ?? '' });
    if (!input.ok) return c.redirect('/ai', 303);
    const asker = { userId: c.var.user!.id, role: c.var.user!.role, timeZone: c.var.user!.timezone };
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
