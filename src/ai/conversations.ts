import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../auth/policy';
import { displayNameById } from '../auth/service';
import type { Db } from '../db/client';
import { aiConversations, aiInteractions } from '../db/schema';
import { notFound } from '../http/errors';
import { conversationHref, conversationTitle, RECENT_CONVERSATIONS } from './shared';
import { mayReadSources } from './source-access';
import { mergeSources, storedSources } from './sources';

/**
 * Ops AI conversations (issue 26): each question belongs to one of its asker's conversations, listed on /ai and
 * opened read-only at /ai/c/{id}. Only the owner lists, continues, shares or deletes one; anyone else gets the same
 * 404 as for a conversation that does not exist, unless it is shared and they may read every source it cites.
 */

export const CONVERSATION_NOT_FOUND = 'Conversation not found.';

export interface ConversationSummary {
  id: string;
  title: string;
  shared: boolean;
  createdAt: string;
  updatedAt: string;
  /** Its page (/ai/c/{id}): the link the owner shares. */
  link: string;
}

/** One question and its answer, as the conversation's page shows them. */
export interface ConversationMessage {
  interactionId: string;
  query: string;
  response: string;
  suggestedActions: string[];
  createdAt: string;
}

export interface ConversationView extends ConversationSummary {
  /** The viewer is its owner (may continue, share and delete it). */
  mine: boolean;
  ownerName: string;
  messages: ConversationMessage[];
}

type Row = typeof aiConversations.$inferSelect;

const summaryOf = (r: Row): ConversationSummary => ({
  id: r.id,
  title: r.title,
  shared: r.shared,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  link: conversationHref(r.id),
});

const byId = (id: string) => eq(aiConversations.id, id);
const ownedBy = (userId: string, id: string) => and(byId(id), eq(aiConversations.userId, userId));

/** The user's own conversation, or 404 (whether it is someone else's or does not exist). */
export async function ownConversation(db: Db, userId: string, id: string): Promise<ConversationSummary> {
  const [row] = await db.select().from(aiConversations).where(ownedBy(userId, id));
  if (!row) throw notFound(CONVERSATION_NOT_FOUND);
  return summaryOf(row);
}

/**
 * The conversation a new exchange joins: `id` (the asker's own, its updated time moved on; else 404), or a new one
 * titled with the question. Call inside the transaction that stores the exchange.
 */
export async function joinConversation(db: Db, userId: string, query: string, id?: string): Promise<string> {
  if (id) {
    const [row] = await db
      .update(aiConversations)
      .set({ updatedAt: sql`now()` })
      .where(ownedBy(userId, id))
      .returning({ id: aiConversations.id });
    if (!row) throw notFound(CONVERSATION_NOT_FOUND);
    return row.id;
  }
  const [row] = await db
    .insert(aiConversations)
    .values({ userId, title: conversationTitle(query) })
    .returning({ id: aiConversations.id });
  return row.id;
}

/** The user's own conversations, the most recently continued first. */
export async function listConversations(
  db: Db,
  userId: string,
  limit = RECENT_CONVERSATIONS,
): Promise<ConversationSummary[]> {
  const rows = await db
    .select()
    .from(aiConversations)
    .where(eq(aiConversations.userId, userId))
    .orderBy(desc(aiConversations.updatedAt), desc(aiConversations.id))
    .limit(limit);
  return rows.map(summaryOf);
}

/** At most this many exchanges are shown (the oldest first). */
const MAX_MESSAGES = 500;

/**
 * A conversation as `viewer` may see it: always its owner's; someone else's only when shared and every source its
 * answers cite is readable by them now (an exchange without recorded sources counts as unreadable). Otherwise 404.
 * `ownerOnly`: the owner's alone (to continue it).
 */
export async function readConversation(
  db: Db,
  viewer: NonNullable<Actor>,
  id: string,
  opts: { ownerOnly?: boolean } = {},
): Promise<ConversationView> {
  const [row] = await db.select().from(aiConversations).where(byId(id));
  const mine = row?.userId === viewer.id;
  if (!row || (!mine && (!row.shared || opts.ownerOnly))) throw notFound(CONVERSATION_NOT_FOUND);
  const interactions = await db
    .select()
    .from(aiInteractions)
    .where(eq(aiInteractions.conversationId, id))
    .orderBy(asc(aiInteractions.createdAt), asc(aiInteractions.id))
    .limit(MAX_MESSAGES);
  if (!mine) {
    const sources = interactions.map((i) => storedSources(i.context));
    const readable = sources.every(Boolean) && (await mayReadSources(db, viewer, mergeSources(sources)));
    if (!readable) throw notFound(CONVERSATION_NOT_FOUND);
  }
  return {
    ...summaryOf(row),
    mine,
    ownerName: await displayNameById(db, row.userId),
    messages: interactions.map((i) => ({
      interactionId: i.id,
      query: i.query,
      response: i.response,
      suggestedActions: suggestedActionsOf(i.context),
      createdAt: i.createdAt.toISOString(),
    })),
  };
}

const suggestedActionsOf = (context: unknown): string[] => {
  const actions = (context as { suggestedActions?: unknown } | null)?.suggestedActions;
  return Array.isArray(actions) ? actions.filter((a): a is string => typeof a === 'string') : [];
};

/** Deletes the user's own conversation and its exchanges (the foreign key cascades); 404 otherwise. */
export async function deleteConversation(db: Db, userId: string, id: string): Promise<ConversationSummary> {
  const [row] = await db.delete(aiConversations).where(ownedBy(userId, id)).returning();
  if (!row) throw notFound(CONVERSATION_NOT_FOUND);
  return summaryOf(row);
}

/** Shares the user's own conversation by link, or stops sharing it; 404 otherwise. Its updated time stays. */
export async function shareConversation(
  db: Db,
  userId: string,
  id: string,
  shared: boolean,
): Promise<ConversationSummary> {
  const [row] = await db
    .update(aiConversations)
    .set({ shared, updatedAt: sql`${aiConversations.updatedAt}` })
    .where(ownedBy(userId, id))
    .returning();
  if (!row) throw notFound(CONVERSATION_NOT_FOUND);
  return summaryOf(row);
}
