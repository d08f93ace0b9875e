import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { requirePageUser } from '../auth/policy';
import { badRequest } from '../http/errors';
import type { Toast } from '../http/flash';
import { checkForm, formValues } from '../http/form';
import { conversationIdFrom, conversationIdOf } from './params';
import { askInput } from './schemas';
import {
  ask,
  deleteConversation,
  engineFor,
  listConversations,
  readConversation,
  shareConversation,
  type ConversationView,
} from './service';
import { AiPage, type AiPageProps, type Exchange } from './views/AiPage';
import { ConversationPage } from './views/ConversationPage';

type C = Context<AppEnv>;

const PAGE = { title: 'Ops AI', subtitle: 'Your intelligent infrastructure assistant' };

/** What a redirect after a form left to say (only a key travels in the address). */
const DONE: Record<string, Toast> = {
  deleted: { title: 'Conversation deleted', variant: 'success' },
  shared: {
    title: 'Share link created',
    text: 'Anyone signed in who may read its sources can open it.',
    variant: 'success',
  },
  unshared: { title: 'Sharing stopped', text: 'Only you can open it now.', variant: 'success' },
};
const doneToast = (c: C) => DONE[c.req.query('done') ?? ''];

const shareForm = z.object({ shared: z.enum(['true', 'false']).transform((v) => v === 'true') });

const exchangesOf = (c: ConversationView): Exchange[] =>
  c.messages.map((m) => ({
    query: m.query,
    response: m.response,
    suggestedActions: m.suggestedActions,
    at: m.createdAt,
  }));

async function renderAi(c: C, props: Omit<AiPageProps, 'recent' | 'timeZone'>, toast?: Toast) {
  const user = c.var.user!;
  const recent = await listConversations(c.var.deps.db, user.id);
  return c.render(<AiPage {...props} recent={recent} timeZone={user.timezone} />, { ...PAGE, toast });
}

/**
 * /ai (the chat and "Recent conversations"; without JavaScript its form posts here and the answer is rendered on the
 * server) and /ai/c/{id}: one conversation, read-only, with its owner's Continue, Share link and Delete.
 */
export function aiPages() {
  const app = new Hono<AppEnv>();
  app.use('/ai', requirePageUser());
  app.use('/ai/*', requirePageUser());

  app.get('/ai', async (c) => {
    // ?continue={id}: the user's own conversation, loaded into the chat (its page's Continue).
    const id = c.req.query('continue');
    const loaded =
      id === undefined
        ? undefined
        : await readConversation(c.var.deps.db, c.var.user!, conversationIdFrom(id), { ownerOnly: true });
    const once = loaded || c.req.query('done') ? '/ai' : undefined;
    const chat = loaded ? { exchanges: exchangesOf(loaded), conversationId: loaded.id } : {};
    return renderAi(c, { ...chat, replaceUrl: once }, doneToast(c));
  });

  app.post('/ai', async (c) => {
    // Only the question (and the conversation it continues): the page's form has no conversation history.
    const values = await formValues(c);
    const fields: Record<string, string> = { query: values.query ?? '' };
    if (values.conversationId) fields.conversationId = values.conversationId;
    const input = checkForm(askInput, fields);
    if (!input.ok) return c.redirect('/ai', 303);
    const asker = { userId: c.var.user!.id, role: c.var.user!.role, timeZone: c.var.user!.timezone };
    const engine = engineFor(c.var.deps.config, c.var.logger);
    const result = await ask(c.var.deps.db, engine, asker, input.data, c.req.raw.signal);
    const exchange = { query: input.data.query, ...result, at: new Date().toISOString() };
    return renderAi(c, { exchanges: [exchange], conversationId: result.conversationId });
  });

  app.get('/ai/c/:id', async (c) => {
    const conversation = await readConversation(c.var.deps.db, c.var.user!, conversationIdOf(c));
    const shareUrl = `${c.var.deps.config.appUrl}${conversation.link}`;
    const toast = doneToast(c);
    const view = (
      <ConversationPage
        conversation={conversation}
        timeZone={c.var.user!.timezone}
        shareUrl={shareUrl}
        replaceUrl={toast ? conversation.link : undefined}
      />
    );
    return c.render(view, { title: conversation.title, subtitle: 'Ops AI conversation', toast });
  });

  app.post('/ai/c/:id/delete', async (c) => {
    await deleteConversation(c.var.deps.db, c.var.user!.id, conversationIdOf(c));
    return c.redirect('/ai?done=deleted', 303);
  });

  app.post('/ai/c/:id/share', async (c) => {
    const form = checkForm(shareForm, await formValues(c));
    if (!form.ok) throw badRequest('shared must be true or false.');
    const done = await shareConversation(c.var.deps.db, c.var.user!.id, conversationIdOf(c), form.data.shared);
    return c.redirect(`${done.link}?done=${done.shared ? 'shared' : 'unshared'}`, 303);
  });
  return app;
}
