import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { aiInteractions } from '../db/schema';
import { badRequest, notFound, tooLarge } from '../http/errors';
import type { Logger } from '../http/logger';
import { createItem, withServerLinks } from '../knowledge/service';
import type { Item } from '../knowledge/schemas';
import { serversMentionedIn } from '../runbooks/service';
import { builtinEngine } from './builtin';
import { joinConversation, ownConversation } from './conversations';
import type { Asker, Engine, EngineAnswer } from './engine';
import { llmEngine, type LlmLimits } from './llm';
import {
  BLANK_CONTENT_MESSAGE,
  MAX_CONTENT_CHARS,
  STREAM_HEARTBEAT_MS,
  type AskInput,
  type AskResult,
  type AutoCreateInput,
} from './schemas';
import { linkedIn, mergeSources } from './sources';

/** Ops AI commands: answer (plain or streamed), store every exchange, feedback, writing tools. */

/** The assistant's read-only tools for other surfaces (the MCP server): the same queries, run as the asking user. */
export { assistantTool, quoteToolResult, type AssistantTool, type ToolName } from './llm-tools';
export { getDocument, getServer, recentDocuments, searchServers } from './tools';
export {
  CONVERSATION_NOT_FOUND,
  deleteConversation,
  listConversations,
  ownConversation,
  readConversation,
  shareConversation,
  type ConversationMessage,
  type ConversationSummary,
  type ConversationView,
} from './conversations';

export interface AiConfig {
  /** `limits` only in tests (shorter deadlines); production uses the defaults in constants.ts. */
  openai?: { apiKey: string; baseUrl?: string; model: string; limits?: Partial<LlmLimits> };
}

const engines = new WeakMap<object, Engine>();

/** The engine for this configuration: the LLM when OPENAI_API_KEY is set, else the built-in rules. */
export function engineFor(config: AiConfig, logger: Logger): Engine {
  let engine = engines.get(config);
  if (!engine) {
    engine = config.openai ? llmEngine({ ...config.openai, logger }) : builtinEngine();
    engines.set(config, engine);
  }
  return engine;
}

/**
 * Stores one exchange in the asker's conversation `conversationId` (their own, else 404), or in a new one: query,
 * response, context = engine, tools used, suggested actions and the sources it drew on (what the tools returned and
 * what the answer links to, for sharing). Returns both ids.
 */
export async function recordInteraction(
  db: Db,
  { userId }: Pick<Asker, 'userId'>,
  { query, conversationId }: Pick<AskInput, 'query' | 'conversationId'>,
  answer: EngineAnswer,
  engine: string,
): Promise<{ interactionId: string; conversationId: string }> {
  const tools = answer.toolsUsed.map(({ sources: _s, ...tool }) => tool);
  const sources = mergeSources([...answer.toolsUsed.map((t) => t.sources), linkedIn(answer.response)]);
  return db.transaction(async (tx) => {
    const conversation = await joinConversation(tx, userId, query, conversationId ?? undefined);
    const [row] = await tx
      .insert(aiInteractions)
      .values({
        userId,
        conversationId: conversation,
        query,
        response: answer.response,
        context: { engine, tools, suggestedActions: answer.suggestedActions, sources },
      })
      .returning({ id: aiInteractions.id });
    return { interactionId: row.id, conversationId: conversation };
  });
}

/** Answers a question (times in the asker's timezone) and stores the exchange; `signal`: the asker went away. */
export async function ask(
  db: Db,
  engine: Engine,
  asker: Asker,
  input: AskInput,
  signal?: AbortSignal,
): Promise<AskResult> {
  if (input.conversationId) await ownConversation(db, asker.userId, input.conversationId);
  const answer = await engine.answer(db, input, asker, undefined, signal);
  const ids = await recordInteraction(db, asker, input, answer, engine.name);
  return { response: answer.response, suggestedActions: answer.suggestedActions, ...ids };
}

const encoder = new TextEncoder();
const event = (data: unknown) => encoder.encode(`data: ${JSON.stringify(data)}\n\n`);
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** askStream for a request: a `conversationId` that is not the asker's own is refused (404) before anything streams. */
export async function answerStream(
  db: Db,
  engine: Engine,
  asker: Asker,
  input: AskInput,
  logger: Logger,
  opts: { signal?: AbortSignal; heartbeatMs?: number } = {},
): Promise<ReadableStream<Uint8Array>> {
  if (input.conversationId) await ownConversation(db, asker.userId, input.conversationId);
  return askStream(db, engine, asker, input, logger, opts);
}

/**
 * Answers as server-sent events: `{chunk}` lines, then `{done, fullResponse, suggestedActions, interactionId,
 * conversationId}`
 * (the chunks add up to fullResponse), or `{error}`; a `: keep-alive` comment every `heartbeatMs` meanwhile.
 * `signal`: the asker went away.
 */
export function askStream(
  db: Db,
  engine: Engine,
  asker: Asker,
  input: AskInput,
  logger: Logger,
  opts: { signal?: AbortSignal; heartbeatMs?: number } = {},
): ReadableStream<Uint8Array> {
  const abort = new AbortController();
  const onAskerGone = () => abort.abort();
  opts.signal?.addEventListener('abort', onAskerGone, { once: true });
  let heartbeat: NodeJS.Timeout | undefined;
  /** The answer ended or the asker went away: no timer or listener outlives the question. */
  const stop = () => {
    clearInterval(heartbeat);
    opts.signal?.removeEventListener('abort', onAskerGone);
  };
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (data: Uint8Array) => {
        if (!abort.signal.aborted) controller.enqueue(data);
      };
      heartbeat = setInterval(() => send(KEEP_ALIVE), opts.heartbeatMs ?? STREAM_HEARTBEAT_MS);
      try {
        const answer = await engine.answer(db, input, asker, (chunk) => send(event({ chunk })), abort.signal);
        const ids = await recordInteraction(db, asker, input, answer, engine.name);
        send(event({ done: true, fullResponse: answer.response, suggestedActions: answer.suggestedActions, ...ids }));
      } catch (err) {
        if (!abort.signal.aborted) logger.error({ err }, 'AI stream failed');
        send(event({ error: 'Failed to get AI response.' }));
      } finally {
        stop();
        try {
          controller.close();
        } catch {
          /* already closed by a disconnect */
        }
      }
    },
    cancel() {
      stop();
      abort.abort();
    },
  });
}

/** Records the user's verdict on one of their own interactions (404 otherwise). */
export async function recordFeedback(
  db: Db,
  userId: string,
  interactionId: string,
  feedback: string,
): Promise<{ interactionId: string; feedback: string }> {
  const rows = await db
    .update(aiInteractions)
    .set({ feedback })
    .where(and(eq(aiInteractions.id, interactionId), eq(aiInteractions.userId, userId)))
    .returning({ id: aiInteractions.id });
  if (!rows.length) throw notFound('AI interaction not found.');
  return { interactionId, feedback };
}

/** Writing-tool input check: blank → 400 with the spec message; above the limit → 413. */
export function checkContent(content: string): string {
  if (!content.trim()) throw badRequest(BLANK_CONTENT_MESSAGE, 'blank_content');
  if (content.length > MAX_CONTENT_CHARS)
    throw tooLarge(`The content is too large (over ${MAX_CONTENT_CHARS.toLocaleString('en')} characters).`);
  return content;
}

/** Tags an auto-created item may carry (AutoCreateInput's limit). */
const MAX_PREVIEW_TAGS = 12;

/**
 * The auto-create preview with the servers the pasted text or the preview names (the panel offers them ticked), and
 * their inventory names among its tags (the inventory is part of the tag vocabulary).
 */
export async function previewWithServers(db: Db, engine: Engine, content: string) {
  const preview = await engine.previewKb(content);
  const servers = await serversMentionedIn(db, `${content}\n${preview.title}\n${preview.content}`);
  const names = servers.map((s) => s.name.toLowerCase());
  const tags = [...new Set([...(preview.tags ?? []), ...names])].slice(0, MAX_PREVIEW_TAGS);
  return { ...preview, tags, serverIds: servers.map((s) => s.id), servers };
}

/** Saves an auto-created preview as a knowledge item (a draft knowledge-base article), linked to its servers. */
export async function saveAutoCreated(db: Db, userId: string, preview: AutoCreateInput): Promise<Item> {
  checkContent(preview.content);
  const item = await createItem(
    db,
    'knowledge',
    {
      title: preview.title,
      content: preview.content,
      excerpt: preview.excerpt ?? null,
      category: preview.category ?? null,
      tags: [...new Set(preview.tags ?? [])],
      isPublished: false,
      isTemplate: false,
      templateType: null,
      serverIds: preview.serverIds,
    },
    userId,
  );
  return withServerLinks(db, item);
}
