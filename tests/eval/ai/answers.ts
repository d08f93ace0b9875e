/** Asks the question set through the service the API uses and scores each answer against the database. */
import { performance } from 'node:perf_hooks';
import type { Db } from '../../../src/db/client';
import { ask } from '../../../src/ai/service';
import type { Asker, Engine } from '../../../src/ai/engine';
import { queryRows } from '../../../src/db/client';
import { sql } from 'drizzle-orm';
import { CASES, type Turn } from './questions';

export interface TurnResult {
  topic: string;
  q: string;
  right: boolean;
  /** Servers or documents the answer names that do not exist. */
  invented: string[];
  /** Expected items the answer left out, unwanted ones it named, or why a decline was not one. */
  misses: string[];
  ms: number;
  response: string;
}

export interface AnswerReport {
  engine: string;
  results: TurnResult[];
  total: number;
  right: number;
  rightShare: number;
  invented: number;
  p50: number;
  p95: number;
}

/** What exists, to tell a cited item from an invented one. */
export interface Known {
  servers: Map<string, string>; // id → name
  serverNames: Set<string>; // lower-case
  documents: Map<string, string>; // id → title
  titles: string[];
}

export async function known(db: Db): Promise<Known> {
  const servers = await queryRows<{ id: string; name: string }>(db, sql`select id, name from servers`);
  const docs = await queryRows<{ id: string; title: string }>(
    db,
    sql`select id, title from documents where deleted_at is null`,
  );
  return {
    servers: new Map(servers.map((s) => [s.id, s.name])),
    serverNames: new Set(servers.map((s) => s.name.toLowerCase())),
    documents: new Map(docs.map((d) => [d.id, d.title])),
    titles: docs.map((d) => d.title),
  };
}

/** The answer as a reader sees it: markdown escapes dropped. */
const plain = (md: string) => md.replace(/\\(.)/g, '$1');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Does the text name `item` as a whole word (AUB-POS-01 is not AUB-POS-010)? */
export const names = (text: string, item: string) =>
  new RegExp(`(^|[^\\w-])${escapeRe(item)}($|[^\\w-])`, 'i').test(text);

const SERVER_LIKE = /\b[A-Za-z]{2,6}(?:-[A-Za-z0-9]{1,8})*-\d{1,3}\b/g;

/** The servers and documents the answer names that do not exist (links checked against the database too). */
export function inventedItems(response: string, asked: string, k: Known): string[] {
  const out: string[] = [];
  for (const [, label, href] of response.matchAll(/\[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)/g)) {
    const text = plain(label);
    const server = /^\/infrastructure\?server=([0-9a-f-]{36})$/.exec(href);
    if (server && k.servers.get(server[1]) !== text) out.push(`${text} (${href})`);
    const doc = /^\/(?:knowledge-base|documents)\/([0-9a-f-]{36})(?:\/|$)/.exec(href);
    if (doc && k.documents.get(doc[1]) !== text) out.push(`${text} (${href})`);
  }
  const said = plain(response.replace(/\]\([^)\s]*\)/g, ']')).replace(
    /\b[\w-]+\.corp\.example\b/gi,
    (h) => h.split('.')[0],
  );
  for (const [token] of said.matchAll(SERVER_LIKE)) {
    if (/^(windows|ubuntu|esxi|kb|token|end|of|day)/i.test(token)) continue;
    if (!k.serverNames.has(token.toLowerCase()) && !names(asked, token)) out.push(token);
  }
  return [...new Set(out)];
}

const DECLINE = /\b(can't|cannot|can only|don't know|only answer|outside what)\b/i;

function score(turn: Turn, response: string, k: Known): string[] {
  const text = plain(response);
  if (turn.decline) {
    const named = [...k.serverNames].filter((n) => names(text, n)).concat(k.titles.filter((t) => names(text, t)));
    return [...named.map((n) => `named ${n}`), ...(DECLINE.test(text) ? [] : ['did not decline'])];
  }
  return [
    ...(turn.expect ?? []).filter((e) => !names(text, e)).map((e) => `missing ${e}`),
    ...(turn.absent ?? []).filter((a) => names(text, a)).map((a) => `named ${a}`),
  ];
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;

/** Runs every case (conversations turn by turn, with the engine's own answers as history) and scores it. */
export async function evaluateAnswers(db: Db, engine: Engine, asker: Asker): Promise<AnswerReport> {
  const k = await known(db);
  const results: TurnResult[] = [];
  for (const c of CASES) {
    const history: { role: 'user' | 'assistant'; content: string }[] = [];
    for (const turn of c.turns) {
      const started = performance.now();
      const { response } = await ask(db, engine, asker, { query: turn.q, conversationHistory: history.slice(-5) });
      const ms = performance.now() - started;
      const misses = score(turn, response, k);
      const asked = [...history.filter((h) => h.role === 'user').map((h) => h.content), turn.q].join('\n');
      const invented = inventedItems(response, asked, k);
      results.push({ topic: c.topic, q: turn.q, right: !misses.length, invented, misses, ms, response });
      history.push({ role: 'user', content: turn.q }, { role: 'assistant', content: response.slice(0, 20_000) });
    }
  }
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const right = results.filter((r) => r.right).length;
  return {
    engine: engine.name,
    results,
    total: results.length,
    right,
    rightShare: right / results.length,
    invented: results.filter((r) => r.invented.length).length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
  };
}
