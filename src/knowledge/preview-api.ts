import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { renderMarkdown } from '../markdown/render';

const renderInput = z.object({
  content: z.string({ error: 'content must be text.' }).max(5 * 1024 * 1024, 'content is too large.'),
});

/** POST /api/markdown/render {content} → {html}: the editor's Preview renders exactly as the server does. */
export function markdownPreviewApi() {
  const app = new Hono<AppEnv>();
  app.post('/api/markdown/render', requireUser(), validate('json', renderInput), (c) =>
    c.json({ html: renderMarkdown(c.req.valid('json').content) }),
  );
  return app;
}
