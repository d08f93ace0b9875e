import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinEngine } from '../../src/ai/builtin';
import type { Database } from '../../src/db/client';
import { evaluateAnswers, inventedItems } from '../eval/ai/answers';
import { CASES } from '../eval/ai/questions';
import { meetsTargets, TARGET_RIGHT } from '../eval/ai/run';
import { seedEvalData } from '../eval/ai/seed';
import { evaluateWriting, INPUTS } from '../eval/ai/writing';
import { isVocabularyTag } from '../../src/ai/builtin/writing';
import { createTestDatabase } from '../helpers/db';

/** npm run eval:ai's targets for the built-in engine, checked in CI (issue 26: ≥ 85% right, nothing invented). */

let database: Database;
let asker: { userId: string; role: string; timeZone: string };

beforeAll(async () => {
  database = await createTestDatabase();
  const seed = await seedEvalData(database.db);
  asker = { userId: seed.userId, role: 'editor', timeZone: 'Australia/Sydney' };
});
afterAll(() => database?.close());

describe('Ops AI answer quality (built-in engine)', () => {
  it('the set holds at least 100 questions, with typos, follow-ups and out-of-scope ones', () => {
    const turns = CASES.flatMap((c) => c.turns);
    expect(turns.length).toBeGreaterThanOrEqual(100);
    for (const topic of ['typo', 'follow-up', 'out of scope', 'docs', 'location'])
      expect(CASES.filter((c) => c.topic === topic).length).toBeGreaterThanOrEqual(5);
  });

  it('answers at least 85% right and invents nothing', async () => {
    const report = await evaluateAnswers(database.db, builtinEngine({ chunkDelayMs: 0 }), asker);
    const wrong = report.results.filter((r) => !r.right).map((r) => `${r.q}: ${r.misses.join('; ')}`);
    expect(report.rightShare, wrong.join('\n')).toBeGreaterThanOrEqual(TARGET_RIGHT);
    expect(report.results.flatMap((r) => r.invented)).toEqual([]);
    expect(meetsTargets(report)).toBe(true);
  });

  it('writing tools: every messy input gets headings, numbered steps, its commands fenced, vocabulary tags', async () => {
    expect(INPUTS.length).toBeGreaterThanOrEqual(30);
    const results = await evaluateWriting(builtinEngine(), isVocabularyTag);
    expect(results.filter((r) => r.failures.length)).toEqual([]);
    expect(isVocabularyTag('days')).toBe(false);
    expect(isVocabularyTag('adfs')).toBe(true);
  });

  it('the invented check catches a made-up server or a link to nothing', () => {
    const k = {
      servers: new Map([['00000000-0000-4000-8000-000000000001', 'AUB-POS-01']]),
      serverNames: new Set(['aub-pos-01']),
      documents: new Map<string, string>(),
      titles: [],
    };
    expect(inventedItems('[AUB-POS-01](/infrastructure?server=00000000-0000-4000-8000-000000000001)', '', k)).toEqual(
      [],
    );
    expect(inventedItems('Try AUB-POS-09.', '', k)).toEqual(['AUB-POS-09']);
    expect(inventedItems('I could not find "db-99".', 'who owns db-99?', k)).toEqual([]);
    expect(inventedItems('[Fix](/knowledge-base/00000000-0000-4000-8000-000000000002/fix)', '', k)).toHaveLength(1);
  });
});
