import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinEngine } from '../../src/ai/builtin';
import { llmEngine } from '../../src/ai/llm';
import { askStream } from '../../src/ai/service';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai';
import { seedInventory } from './seed';

/** Issue 20: a streamed question removes every abort listener it added (no MaxListenersExceededWarning). */

const QUESTIONS = 15;
const question = { query: 'Which servers are in Auburn?', conversationHistory: [] };
const MODEL_ENV = { OPENAI_API_KEY: 'sk-test-key', OPENAI_MODEL: 'fake-model' };

let fake: FakeOpenAI;
let app: RunningApp;
let user: TestUser;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  app = await startApp();
  user = await createSignedInUser(app.db);
  await seedInventory(app.db, user.id);
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

/** The MaxListenersExceededWarning messages the process emits while `run` runs. */
async function listenerWarningsDuring(run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const onWarning = (w: Error) => {
    if (w.name === 'MaxListenersExceededWarning') seen.push(w.message);
  };
  process.on('warning', onWarning);
  try {
    await run();
    await new Promise((r) => setImmediate(r)); // warnings are emitted on a later tick
  } finally {
    process.off('warning', onWarning);
  }
  return seen;
}

const engines = {
  'the built-in engine': () => builtinEngine(),
  'an OpenAI-compatible model': () =>
    llmEngine({ apiKey: MODEL_ENV.OPENAI_API_KEY, baseUrl: fake.url, model: 'fake-model', logger: app.deps.logger }),
};

describe(`${QUESTIONS} streamed questions in a row through the app (real HTTP server)`, () => {
  it('no MaxListenersExceededWarning, and every answer is complete', async () => {
    const warnings = await listenerWarningsDuring(async () => {
      for (let i = 0; i < QUESTIONS; i++) {
        const res = await fetch(`${app.url}/api/ai/ask-stream`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: app.url, Cookie: user.cookie },
          body: JSON.stringify(question),
        });
        expect(await res.text()).toContain('"done":true');
      }
    });
    expect(warnings).toEqual([]);
  });
});

describe.each(Object.entries(engines))('%s: the asker signal keeps no listener once a question ends', (_name, make) => {
  it(`${QUESTIONS} questions on one long-lived signal: its abort listeners do not grow, no warning`, async () => {
    const engine = make();
    const asker = new AbortController();
    const counts: number[] = [];
    const warnings = await listenerWarningsDuring(async () => {
      for (let i = 0; i < QUESTIONS; i++) {
        const body = askStream(
          app.db,
          engine,
          { userId: user.id, role: 'editor', timeZone: 'UTC' },
          question,
          app.deps.logger,
          {
            signal: asker.signal,
          },
        );
        expect(await new Response(body).text()).toContain('"done":true');
        counts.push(getEventListeners(asker.signal, 'abort').length);
      }
    });
    expect(counts).toEqual(Array(QUESTIONS).fill(0));
    expect(warnings).toEqual([]);
  });
});
