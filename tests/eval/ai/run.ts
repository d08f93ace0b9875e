/**
 * npm run eval:ai: Ops AI's answer quality on a seeded fleet and knowledge base (tests/eval/ai/seed.ts), for the
 * built-in engine and, when OPENAI_API_KEY is set, the configured model. Prints right %, invented items and
 * latency; exits 1 when the built-in engine misses its targets (≥ 85% right, no invented item).
 */
import { openPglite } from '../../../src/db/client';
import { runMigrations } from '../../../src/db/migrate';
import { engineFor } from '../../../src/ai/service';
import { builtinEngine } from '../../../src/ai/builtin';
import type { Engine } from '../../../src/ai/engine';
import { createLogger } from '../../../src/http/logger';
import { type AnswerReport, evaluateAnswers } from './answers';
import { seedEvalData } from './seed';
import { isVocabularyTag } from '../../../src/ai/builtin/writing';
import { evaluateWriting, type WritingResult } from './writing';

export const TARGET_RIGHT = 0.85;

export const meetsTargets = (r: AnswerReport) => r.rightShare >= TARGET_RIGHT && r.invented === 0;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const ms = (x: number) => `${x.toFixed(1)} ms`;

export function printAnswers(r: AnswerReport, verbose = false): void {
  console.log(
    `${r.engine.padEnd(8)} right ${r.right}/${r.total} (${pct(r.rightShare)}), answers with invented items ${r.invented}, latency p50 ${ms(r.p50)} p95 ${ms(r.p95)}`,
  );
  for (const x of r.results.filter((x) => !x.right || x.invented.length)) {
    console.log(`  ✗ [${x.topic}] ${x.q} — ${[...x.misses, ...x.invented.map((i) => `invented ${i}`)].join('; ')}`);
    if (verbose) console.log(`    ${x.response.slice(0, 400).replace(/\n/g, '\n    ')}`);
  }
}

export function printWriting(results: WritingResult[]): void {
  const passed = results.filter((r) => !r.failures.length).length;
  console.log(`writing  checks passed ${passed}/${results.length} inputs (Auto Create KB and Enhance with AI)`);
  for (const r of results.filter((x) => x.failures.length)) console.log(`  ✗ ${r.name} — ${r.failures.join('; ')}`);
}

async function main() {
  const database = await openPglite();
  await runMigrations(database);
  const seed = await seedEvalData(database.db);
  const asker = { userId: seed.userId, role: 'editor', timeZone: 'Australia/Sydney' };
  const verbose = process.argv.includes('--verbose');
  const builtin = await evaluateAnswers(database.db, builtinEngine({ chunkDelayMs: 0 }), asker);
  printAnswers(builtin, verbose);
  const writing = await evaluateWriting(builtinEngine(), isVocabularyTag);
  printWriting(writing);
  if (process.env.OPENAI_API_KEY) {
    const llm: Engine = engineFor(
      {
        openai: {
          apiKey: process.env.OPENAI_API_KEY,
          baseUrl: process.env.OPENAI_BASE_URL || undefined,
          model: process.env.OPENAI_MODEL || 'gpt-4o-mini',
        },
      },
      createLogger('warn'),
    );
    printAnswers(await evaluateAnswers(database.db, llm, asker), verbose);
  } else console.log('llm      not configured (set OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL to measure a model)');
  await database.close();
  const ok = meetsTargets(builtin) && writing.every((r) => !r.failures.length);
  console.log(
    ok
      ? 'Targets met.'
      : `Targets missed: built-in needs ≥ ${pct(TARGET_RIGHT)} right, 0 invented and every writing check passed.`,
  );
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/tests\//, '/tests/'))) await main();
