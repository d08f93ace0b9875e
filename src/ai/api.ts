import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allow, requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import {
  askInput,
  autoCreateInput,
  enhanceContentInput,
  enhanceFieldInput,
  feedbackInput,
  previewInput,
  shareConversationInput,
} from './schemas';
import { conversationIdOf } from './params';
import * as ai from './service';

const engine = (c: Context<AppEnv>) => ai.engineFor(c.var.deps.config, c.var.logger);
const asker = (c: Context<AppEnv>) => ({
  userId: c.var.user!.id,
  role: c.var.user!.role,
  timeZone: c.var.user!.timezone,
});

/** JSON routes of Ops AI under /api/ai (every route needs a signed-in user). */
export function aiApi() {
  const api = new Hono<AppEnv>();
  api.use('/api/ai/*', requireUser());
  // Writing help and creating knowledge items: editors and admins. Questions and feedback: every role.
  const write = allow('content.write');

  api.post('/api/ai/ask', validate('json', askInput), async (c) => {
    return c.json(await ai.ask(c.var.deps.db, engine(c), asker(c), c.req.valid('json'), c.req.raw.signal));
  });

  api.post('/api/ai/ask-stream', validate('json', askInput), async (c) => {
    const body = await ai.answerStream(c.var.deps.db, engine(c), asker(c), c.req.valid('json'), c.var.logger, {
      signal: c.req.raw.signal,
    });
    return c.body(body, 200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
    });
  });

  // Conversations (issue 26): the user's own; one shared with them only while they may read its sources.
  api.get('/api/ai/conversations', async (c) => c.json(await ai.listConversations(c.var.deps.db, c.var.user!.id)));

  api.get('/api/ai/conversations/:id', async (c) =>
    c.json(await ai.readConversation(c.var.deps.db, c.var.user!, conversationIdOf(c))),
  );

  api.delete('/api/ai/conversations/:id', async (c) => {
    await ai.deleteConversation(c.var.deps.db, c.var.user!.id, conversationIdOf(c));
    return c.json({ message: 'Conversation deleted.' });
  });

  api.post('/api/ai/conversations/:id/share', validate('json', shareConversationInput), async (c) => {
    const { shared } = c.req.valid('json');
    return c.json(await ai.shareConversation(c.var.deps.db, c.var.user!.id, conversationIdOf(c), shared));
  });

  api.post('/api/ai/feedback', validate('json', feedbackInput), async (c) => {
    const { interactionId, feedback } = c.req.valid('json');
    return c.json(await ai.recordFeedback(c.var.deps.db, c.var.user!.id, interactionId, feedback));
  });

  api.post('/api/ai/enhance-content', write, validate('json', enhanceContentInput), async (c) => {
    const input = c.req.valid('json');
    ai.checkContent(input.content);
    return c.json(await engine(c).enhanceContent(input));
  });

  api.post('/api/ai/enhance-field', write, validate('json', enhanceFieldInput), async (c) => {
    const input = c.req.valid('json');
    ai.checkContent(input.content);
    return c.json({ enhancedContent: await engine(c).enhanceField(input) });
  });

  api.post('/api/ai/auto-create-kb-preview', write, validate('json', previewInput), async (c) => {
    const { content } = c.req.valid('json');
    return c.json(await ai.previewWithServers(c.var.deps.db, engine(c), ai.checkContent(content)));
  });

  api.post('/api/ai/auto-create-kb', write, validate('json', autoCreateInput), async (c) => {
    return c.json(await ai.saveAutoCreated(c.var.deps.db, c.var.user!.id, c.req.valid('json')), 201);
  });

  return api;
}
