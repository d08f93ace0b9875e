import type { Db } from '../../db/client';
import { actorOf, type Engine } from '../engine';
import type { AskInput } from '../schemas';
import { serverNames } from '../tools';
import { draftAnswer } from './answers';
import { detectIntent, suggestionsFor } from './intents';
import * as writing from './writing';

/** Suggested actions for a question (shared with the LLM engine). */
export async function suggestActions(db: Db, query: string): Promise<string[]> {
  const intent = detectIntent(
    query,
    (await serverNames(db)).map((s) => s.name),
  );
  return suggestionsFor(intent.kind, /\bpos\b/i.test(query));
}

/** Pieces of about `size` characters on word boundaries (they add up to the text). */
export function pieces(text: string, size = 24): string[] {
  const out: string[] = [];
  let current = '';
  for (const token of text.match(/\S+\s*|\s+/g) ?? []) {
    current += token;
    if (current.length >= size) {
      out.push(current);
      current = '';
    }
  }
  if (current) out.push(current);
  return out;
}

/** Waits `ms` or until `signal` aborts; the abort listener goes when the wait ends (one wait per streamed chunk). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** The built-in engine: intent rules → read-only tools → markdown. No network, no key. */
export function builtinEngine(opts: { chunkDelayMs?: number } = {}): Engine {
  const delay = opts.chunkDelayMs ?? 12;
  return {
    name: 'builtin',
    async answer(db: Db, input: AskInput, asker, emit, signal) {
      const names = (await serverNames(db)).map((s) => s.name);
      const intent = detectIntent(input.query, names);
      const { text, tools } = await draftAnswer(db, intent, asker.timeZone, actorOf(asker));
      if (!emit)
        return {
          response: text,
          suggestedActions: suggestionsFor(intent.kind, /\bpos\b/i.test(input.query)),
          toolsUsed: tools,
        };
      // Stream at a readable pace, but never for much longer than a second whatever the length.
      const parts = pieces(text, Math.max(24, Math.ceil(text.length / 80)));
      for (const [i, part] of parts.entries()) {
        if (signal?.aborted) break;
        emit(part);
        if (i < parts.length - 1 && delay) await sleep(delay, signal);
      }
      return {
        response: text,
        suggestedActions: suggestionsFor(intent.kind, /\bpos\b/i.test(input.query)),
        toolsUsed: tools,
      };
    },
    enhanceContent: async (input) => writing.enhanceContent(input),
    enhanceField: async (input) => writing.enhanceField(input),
    previewKb: async (content) => writing.previewKb(content),
  };
}
