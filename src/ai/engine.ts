import type { Db } from '../db/client';
import type { AskInput, EnhancedContent, EnhanceContentInput, EnhanceFieldInput, KbPreview } from './schemas';
import type { Sources } from './sources';

/** One tool call an answer made (stored as the interaction's context). */
export interface ToolUse {
  name: string;
  args: Record<string, unknown>;
  results: number;
  /** What it returned that an answer may quote (kept apart from the tool list: context.sources). */
  sources?: Sources;
}

export interface EngineAnswer {
  response: string;
  suggestedActions: string[];
  toolsUsed: ToolUse[];
}

/** Who is asking: answers quote only what they may read, and give times in their timezone. */
export interface Asker {
  userId: string;
  /** Their role: with the id, what the policy decides on (restricted items, the audit log). */
  role: string;
  timeZone: string;
}

/** The asker as the policy's actor. */
export const actorOf = (asker: Asker) => ({ id: asker.userId, role: asker.role });

/** An answering engine: the built-in rules (default) or an OpenAI-compatible model. */
export interface Engine {
  readonly name: 'builtin' | 'llm';
  /** Answers a question; `emit` (streaming only) receives the text as produced: the chunks add up to the response. */
  answer(
    db: Db,
    input: AskInput,
    asker: Asker,
    emit?: (chunk: string) => void,
    signal?: AbortSignal,
  ): Promise<EngineAnswer>;
  enhanceContent(input: EnhanceContentInput): Promise<EnhancedContent>;
  enhanceField(input: EnhanceFieldInput): Promise<string>;
  previewKb(content: string): Promise<KbPreview>;
}
