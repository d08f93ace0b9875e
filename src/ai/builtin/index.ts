import type { Db } from '../../db/client';
import { actorOf, type Engine } from '../engine';
import type { AskInput } from '../schemas';
import { fleetFacts } from '../tools';
import { draftAnswer } from './answers';
import { serversInContext } from './follow-up';
import { detectIntent, type Intent, suggestionsFor } from './intents';
import { normalise, vocabulary } from './words';
import * as writing from './writing';

/** Words never taken for typos (they are what the question is made of). */
const COMMON = new Set(
  (
    'a an and any are about all at be by can could do does for from get give have how i in is it its me my of on or ' +
    'our please show tell the their them there these this those to us we what which who with you your some each ' +
    'have has had was were will would should want need know find list also just only than then that they when where ' +
    'while why into over under after before been being more most much many other same such very again here now ' +
    "right ones one joke what's whats won't can't"
  ).split(' '),
);

/** The question as the rules read it, with what it is about: the fleet, typos and synonyms, the conversation. */
async function understand(db: Db, input: AskInput): Promise<Intent> {
  const fleet = await fleetFacts(db);
  const known = vocabulary([...fleet.locations, ...fleet.functions, ...fleet.owners, ...fleet.systems]);
  const query = normalise(input.query, known, COMMON);
  const context = serversInContext(input.conversationHistory ?? [], fleet.names);
  return detectIntent(query, fleet.names, fleet, context);
}

/** Suggested actions for a question (shared with the LLM engine). */
export async function suggestActions(db: Db, query: string): Promise<string[]> {
  const intent = await understand(db, { query, conversationHistory: [] });
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
      const intent = await understand(db, input);
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
