import { asc } from 'drizzle-orm';
import type { Db } from '../db/client';
import { servers } from '../db/schema';
import { summaryColumns } from './links';
import { type ServerSummary, summaryOf } from './shared';

/**
 * Which servers a text names (the editor's "Mentioned servers", Auto Create KB): a server is mentioned when its name,
 * hostname or IP address stands in the text as a whole token. A token is a run of [A-Za-z0-9._:-] without the
 * punctuation at its ends; its dot- and colon-separated parts count too, so `web1.corp.example.com` and `web1:22`
 * name web1, while `web10`, `web1x` and `10.0.0.10` do not name web1 or 10.0.0.1. Case does not matter; a name with
 * spaces is found as the same run of words.
 */

const TOKEN = /[A-Za-z0-9._:-]+/g;
const EDGE_PUNCTUATION = /^[._:-]+|[._:-]+$/g;
const ONE_TOKEN = /^[A-Za-z0-9._:-]+$/;

/** The tokens of a text, lower case, without punctuation at their ends (empty ones left out). */
export function tokensOf(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0].replace(EDGE_PUNCTUATION, '').toLowerCase();
    if (token) tokens.push(token);
  }
  return tokens;
}

/** Every token and its colon- and dot-separated parts: what a one-word name or address is looked up in. */
function wordsOf(tokens: string[]): Set<string> {
  const words = new Set<string>();
  for (const token of tokens) {
    words.add(token);
    for (const part of token.split(':')) {
      const trimmed = part.replace(EDGE_PUNCTUATION, '');
      if (!trimmed) continue;
      words.add(trimmed);
      for (const piece of trimmed.split('.')) if (piece) words.add(piece);
    }
  }
  return words;
}

/** A text ready for lookups: its words (with parts) and where each token stands, for names of several words. */
export interface MentionIndex {
  words: Set<string>;
  tokens: string[];
  positions: Map<string, number[]>;
}

/** Reads a text once so that each server costs a few lookups. */
export function indexText(text: string): MentionIndex {
  const tokens = tokensOf(text);
  const positions = new Map<string, number[]>();
  tokens.forEach((t, i) => {
    const at = positions.get(t);
    if (at) at.push(i);
    else positions.set(t, [i]);
  });
  return { words: wordsOf(tokens), tokens, positions };
}

/** True when the text names this name, hostname or address as a whole token (or as the same run of words). */
export function mentions(index: MentionIndex, name: string | null | undefined): boolean {
  if (!name) return false;
  // Most names and every address are one token: no need to cut them up.
  if (ONE_TOKEN.test(name)) return index.words.has(name.replace(EDGE_PUNCTUATION, '').toLowerCase());
  const words = tokensOf(name);
  if (words.length === 0) return false;
  if (words.length === 1) return index.words.has(words[0]);
  return (index.positions.get(words[0]) ?? []).some((start) => words.every((w, k) => index.tokens[start + k] === w));
}

/** The servers a text names (by name, hostname or IP address), by name, less those in `exclude`. */
export async function serversMentionedIn(db: Db, text: string, exclude: string[] = []): Promise<ServerSummary[]> {
  if (!text.trim()) return [];
  const index = indexText(text);
  const skip = new Set(exclude);
  const rows = await db.select(summaryColumns).from(servers).orderBy(asc(servers.name));
  return rows
    .filter(
      (r) =>
        !skip.has(r.id) && (mentions(index, r.name) || mentions(index, r.hostname) || mentions(index, r.ipAddress)),
    )
    .map(summaryOf);
}
