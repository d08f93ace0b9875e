import { asc } from 'drizzle-orm';
import type { Db } from '../db/client';
import { servers } from '../db/schema';
import { enforce } from '../http/rate-limit';
import { summaryColumns } from './links';
import { type ServerSummary, summaryOf, withoutInlineImages } from './shared';

/**
 * Which servers a text names (the editor's "Mentioned servers", Auto Create KB): a server is mentioned when its name,
 * hostname or IP address stands in the text as a whole token. A token is a run of [A-Za-z0-9._:-] without the
 * punctuation at its ends; its dot- and colon-separated parts count too, so `web1.corp.example.com` and `web1:22`
 * name web1, while `web10`, `web1x` and `127.0.0.10` do not name web1 or 127.0.0.1. Case does not matter; a name with
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

/** A text ready for lookups: its words (with parts), and its tokens joined by single spaces for names of several words. */
export interface MentionIndex {
  words: Set<string>;
  /** ` token token … ` (a space at each end, so a run of whole tokens is always found as ` a b `). */
  joined: string;
}

/** Reads a text once so that each server costs a few lookups. */
export function indexText(text: string): MentionIndex {
  const tokens = tokensOf(text);
  return { words: wordsOf(tokens), joined: ` ${tokens.join(' ')} ` };
}

/** True when the text names this name, hostname or address as a whole token (or as the same run of words). */
export function mentions(index: MentionIndex, name: string | null | undefined): boolean {
  if (!name) return false;
  // Most names and every address are one token: no need to cut them up.
  if (ONE_TOKEN.test(name)) return index.words.has(name.replace(EDGE_PUNCTUATION, '').toLowerCase());
  const words = tokensOf(name);
  if (words.length === 0) return false;
  if (words.length === 1) return index.words.has(words[0]);
  // One string search (linear in practice), not a walk from every place the first word stands.
  return index.joined.includes(` ${words.join(' ')} `);
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

/** One person's reads of a text for server names: the editor asks 1.5 s after typing rests, so this is plenty. */
export const MENTION_READS = { limit: 60, windowSeconds: 60 } as const;

/**
 * serversMentionedIn for a person (the editor's suggestions, an item's server-suggestions), its inline pictures left
 * out; counted against MENTION_READS, 429 past it (a long text costs CPU).
 */
export async function serversMentionedFor(
  db: Db,
  userId: string,
  text: string,
  exclude: string[] = [],
): Promise<ServerSummary[]> {
  await enforce(
    db,
    [{ key: `server-mentions:${userId}`, ...MENTION_READS }],
    'Too many reads for mentioned servers: wait a minute and try again.',
  );
  return serversMentionedIn(db, withoutInlineImages(text), exclude);
}
