import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres, queryRows } from '../../src/db/client';
import { usingPostgres } from '../helpers/db';
import { createSignedInUser } from '../helpers/users';
import { startApp, type AppProcess } from './app-process';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from './private-postgres';

const UNAVAILABLE = 'The database is unavailable. Please try again shortly.';

// These tests start a PostgreSQL server of their own (never the shared one, which they kill and freeze):
// run once, in the PostgreSQL run of the suite.
const skip = !usingPostgres()
  ? 'runs with TEST_DATABASE_URL only (starts a private PostgreSQL)'
  : privatePostgresUnavailable();

let server: PrivatePostgres | undefined;
let app: AppProcess | undefined;
afterEach(async () => {
  await app?.stop();
  await server?.stop();
  app = server = undefined;
});

/** A signed-in admin on the private server (created directly in its database, as tests do). */
async function signedInCookie(url: string): Promise<string> {
  const database = openPostgres(url, { max: 1 });
  try {
    return (await createSignedInUser(database.db, { role: 'admin' })).cookie;
  } finally {
    await database.close();
  }
}

interface Answer {
  status: number;
  message?: string;
  title: string;
  at: number;
}

/** Creates documents (each one a transaction) from `workers` loops until stopped; records every answer. */
function writeLoad(base: string, cookie: string, workers: number) {
  const answers: Answer[] = [];
  let running = true;
  const loop = async (n: number) => {
    for (let i = 0; running; i++) {
      const title = `load ${n}-${i}`;
      try {
        const res = await fetch(`${base}/api/documents`, {
          method: 'POST',
          headers: { cookie, origin: 'http://localhost:3000', 'content-type': 'application/json' },
          body: JSON.stringify({ title, content: 'written under load' }),
        });
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        answers.push({ status: res.status, message: body.message, title, at: Date.now() });
      } catch {
        // The web process went away: the test fails on alive() below.
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const loops = Array.from({ length: workers }, (_, n) => loop(n));
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function until<T>(check: () => Promise<T> | T, timeoutMs: number, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!!skip)(`several processes on one PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a web process survives kill -9 of PostgreSQL under write load: 503 with a message while it is down, 201 again after restart', async () => {
    server = await startPrivatePostgres();
    app = await startApp({ DATABASE_URL: server.url, APP_URL: 'http://localhost:3000' });
    const cookie = await signedInCookie(server.url);
    const load = writeLoad(app.base, cookie, 16);
    try {
      await until(() => load.answers.filter((a) => a.status === 201).length >= 50, 30_000, '50 documents written');
      const killedAt = Date.now();
      await server.kill();
      // Alive after it has answered the outage (instead of after a fixed 1.5 s): the errors have reached it by then.
      await until(
        () => load.answers.some((a) => a.at > killedAt && a.status === 503),
        10_000,
        'a 503 during the outage',
      );
      expect(app.alive(), app.output()).toBe(true);

      await server.start();
      const restartedAt = Date.now();
      await until(
        () => load.answers.some((a) => a.at > restartedAt && a.status === 201),
        20_000,
        'a document written after the restart',
      );
    } finally {
      await load.stop();
    }
    expect(app.alive(), app.output()).toBe(true);
    const failures = load.answers.filter((a) => a.status !== 201);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.filter((a) => a.status !== 503 || a.message !== UNAVAILABLE)).toEqual([]);

    // Every acknowledged write survived the crash.
    const database = openPostgres(server.url, { max: 1 });
    const rows = await queryRows<{ title: string }>(database.db, sql`select title from documents`);
    await database.close();
    const stored = new Set(rows.map((r) => r.title));
    expect(load.answers.filter((a) => a.status === 201 && !stored.has(a.title))).toEqual([]);
  }, 120_000);

  it('a frozen database: /readyz answers 503 within 2 s, requests 503 within the query timeout, and all recover without lost pool slots', async () => {
    server = await startPrivatePostgres();
    // Two pooled connections: a request that kept one after the freeze would leave the pool short afterwards.
    app = await startApp({ DATABASE_URL: server.url, APP_URL: 'http://localhost:3000', DATABASE_POOL_MAX: '2' });
    const cookie = await signedInCookie(server.url);
    const createDocument = (title: string) =>
      fetch(`${app!.base}/api/documents`, {
        method: 'POST',
        headers: { cookie, origin: 'http://localhost:3000', 'content-type': 'application/json' },
        body: JSON.stringify({ title, content: 'frozen' }),
      });
    expect((await createDocument('before')).status).toBe(201);

    server.freeze();
    let started = Date.now();
    const ready = await fetch(`${app.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_500);

    started = Date.now();
    const answers = await Promise.all([
      fetch(`${app.base}/api/documents`, { headers: { cookie } }),
      ...[1, 2, 3].map((n) => createDocument(`during ${n}`)),
    ]);
    expect(Date.now() - started).toBeLessThan(25_000);
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(((await res.json()) as { message: string }).message).toBe(UNAVAILABLE);
      expect(res.headers.get('retry-after')).toBeTruthy();
    }

    server.thaw();
    await until(async () => (await fetch(`${app!.base}/readyz`)).status === 200, 20_000, '/readyz after the thaw');
    for (const n of [1, 2, 3, 4]) expect((await createDocument(`after ${n}`)).status).toBe(201);
  }, 120_000);

  it('PostgreSQL out of connections (max_connections reached): 503 with a message, not 500', async () => {
    server = await startPrivatePostgres();
    app = await startApp({ DATABASE_URL: server.url, APP_URL: 'http://localhost:3000', DATABASE_POOL_MAX: '3' });
    const cookie = await signedInCookie(server.url);
    // Take every connection the server has left ("sorry, too many clients already" after that).
    const hogs: pg.Client[] = [];
    const fill = async () => {
      for (;;) {
        const client = new pg.Client({ connectionString: server!.url });
        const full = await client.connect().then(
          () => false,
          (err: { code?: string }) => err.code === '53300',
        );
        if (full) return;
        hogs.push(client);
      }
    };
    try {
      await fill();
      // The app's pool may still hold idle connections from its start (the listeners' first runs): end every backend
      // that is not ours and take their slots too, so the requests below need a connection the server cannot give.
      const ours = hogs.map((c) => (c as unknown as { processID: number }).processID);
      await hogs[0].query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> all($1::int[])',
        [ours],
      );
      await new Promise((r) => setTimeout(r, 300));
      await fill();
      const answers = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const res = await fetch(`${app!.base}/api/documents`, { headers: { cookie } });
          return { status: res.status, message: ((await res.json()) as { message?: string }).message };
        }),
      );
      expect(answers.filter((a) => a.status !== 200 && (a.status !== 503 || a.message !== UNAVAILABLE))).toEqual([]);
      expect(answers.some((a) => a.status === 503)).toBe(true);
    } finally {
      await Promise.all(hogs.map((c) => c.end()));
    }
    expect((await fetch(`${app.base}/api/documents`, { headers: { cookie } })).status).toBe(200);
  }, 120_000);
});
