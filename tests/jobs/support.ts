import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { allJobs } from '../../jobs/index';
import type { JobDefinition } from '../../jobs/define-job';
import { createScheduler } from '../../jobs/scheduler';
import { loadConfig, type Config } from '../../src/config';
import { openPostgres, type Database } from '../../src/db/client';
import { createLogger } from '../../src/http/logger';

/**
 * Test configuration: silent logs, a temporary DATA_DIR, jobs not started by anything but the test; health
 * checks may reach loopback, and one failed round makes a server offline (tests about what a round tells).
 */
export function jobsConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    APP_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opshub-jobs-')),
    JOBS: 'off',
    HEALTH_CHECK_ALLOW_CIDRS: '127.0.0.0/8,::1',
    HEALTH_CHECK_FAILURES: '1',
    ...env,
  });
}

/** A scheduler over the given jobs (all real jobs by default). */
export function testScheduler(database: Database, opts: { jobs?: JobDefinition[]; config?: Config } = {}) {
  const config = opts.config ?? jobsConfig();
  return createScheduler({ database, config, logger: createLogger('silent'), jobs: opts.jobs ?? allJobs });
}

/** The URL of the fresh test database behind a PostgreSQL Database. */
export function urlOf(database: Database): string {
  return database.pool!.options.connectionString!;
}

/** A second, independent connection pool to the same PostgreSQL database: "another worker". */
export function secondWorkerDatabase(database: Database): Database {
  return openPostgres(urlOf(database), { max: 3 });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until check() is truthy (or fails after timeoutMs). */
export async function waitFor<T>(check: () => Promise<T> | T, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}
