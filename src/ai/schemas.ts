import { z } from 'zod';

/** Shared by the AI routes and the chat / auto-create islands (nothing server-only here). */

export * from './shared';
import { BLANK_CONTENT_MESSAGE, HISTORY_LIMIT } from './shared';

const historyMessage = z.object({
  type: z.enum(['user', 'assistant']).optional(),
  role: z.enum(['user', 'assistant']).optional(),
  content: z.string().max(20_000, 'A history message must be at most 20000 characters.'),
});

export const askInput = z.object({
  query: z
    .string({ error: 'Query is required.' })
    .trim()
    .min(1, 'Query is required.')
    .max(4000, 'Query must be at most 4000 characters.'),
  conversationHistory: z
    .array(historyMessage, { error: 'conversationHistory must be a list of messages.' })
    .max(HISTORY_LIMIT, `conversationHistory holds at most ${HISTORY_LIMIT} messages.`)
    .optional()
    .default([]),
  /** Issue 26: the asker's conversation this question continues; absent (or null) → a new conversation. */
  conversationId: z.uuid({ error: 'conversationId must be a conversation id.' }).nullish(),
});
export type AskInput = z.infer<typeof askInput>;

/** /api/ai/conversations/{id} and /ai/c/{id}. */
export const conversationParam = z.object({ id: z.uuid({ error: 'Conversation not found.' }) });

/** POST /api/ai/conversations/{id}/share. */
export const shareConversationInput = z.object({
  shared: z.boolean({ error: 'shared must be true or false.' }),
});

export const feedbackInput = z.object({
  interactionId: z.uuid('interactionId must be an interaction id.'),
  feedback: z
    .string({ error: 'Feedback is required.' })
    .trim()
    .min(1, 'Feedback is required.')
    .max(20, 'Feedback must be at most 20 characters.'),
});

const content = z.string({ error: BLANK_CONTENT_MESSAGE });

export const enhanceContentInput = z.object({
  title: z.string().max(255).optional().nullable(),
  content,
  category: z.string().max(100).optional().nullable(),
});
export type EnhanceContentInput = z.infer<typeof enhanceContentInput>;

export const fieldTypes = ['title', 'excerpt', 'purpose'] as const;
export type FieldType = (typeof fieldTypes)[number];
export const enhanceFieldInput = z.object({
  fieldType: z.enum(fieldTypes, { error: 'fieldType must be title, excerpt or purpose.' }),
  content,
  category: z.string().max(100).optional().nullable(),
});
export type EnhanceFieldInput = z.infer<typeof enhanceFieldInput>;

export const previewInput = z.object({ content });

/** The auto-created preview (spec §3): title, category, tags, excerpt, content. */
export const kbPreview = z.object({
  title: z
    .string({ error: 'Title is required.' })
    .trim()
    .min(1, 'Title is required.')
    .max(255, 'Title must be at most 255 characters.'),
  category: z.string().trim().max(100, 'Category must be at most 100 characters.').nullable().optional(),
  tags: z.array(z.string().trim().min(1).max(100)).max(100).optional().default([]),
  excerpt: z.string().max(2000, 'Excerpt must be at most 2000 characters.').nullable().optional(),
  content: z.string({ error: BLANK_CONTENT_MESSAGE }),
});
export type KbPreview = z.infer<typeof kbPreview>;

/** POST /api/ai/auto-create-kb: the preview and the servers to link it to (issue 23: those left ticked). */
export const autoCreateInput = kbPreview.extend({
  serverIds: z
    .array(z.uuid({ error: 'serverIds must be server ids.' }), { error: 'serverIds must list server ids.' })
    .max(500, 'An item may link at most 500 servers.')
    .optional(),
});
export type AutoCreateInput = z.infer<typeof autoCreateInput>;

export interface EnhancedContent {
  improvedContent: string;
  suggestedTitle: string;
  extractedTags: string[];
  summary: string;
}

export interface AskResult {
  response: string;
  suggestedActions: string[];
  interactionId: string;
  /** Issue 26: the conversation this exchange belongs to (send it back with the next question). */
  conversationId: string;
}
