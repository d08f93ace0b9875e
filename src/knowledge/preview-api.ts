import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { renderMarkdown } from '../markdown/render';
import { fillServerPlaceholders } from '../runbooks/service';

const renderInput = z.object({
  content: z.string({ error: 'content must be text.' }).max(5 * 1024 * 1024, 'content is too large.'),
});

/**
 * POST /api/markdown/render {content} → {html}: the editor's Preview renders exactly as the server does, server
 * placeholders filled with the live values (times in the user's timezone).
 */
export function markdownPreviewApi() {
  const app = new Hono<AppEnv>();
  app.post('/api/markdown/render', requireUser(), validate('json', renderInput), async (c) => {
    const filled = await fillServerPlaceholders(c.var.deps.db, c.req.valid('json').content, c.var.user!.timezone);
    return c.json({ html: renderMarkdown(filled.markdown, filled.fill) });
  });
  return app;
}
