import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createApp } from '../../src/app';
import type { AppDeps } from '../../src/app-env';
import { loadConfig, type Config } from '../../src/config';
import type { Database } from '../../src/db/client';
import { createLogger } from '../../src/http/logger';
import { loadAssets } from '../../src/ui/assets';
import { createTestDatabase } from './db';

export const TEST_ORIGIN = 'http://localhost:3000';
/** This run's asset build (tests/helpers/test-assets.ts, chosen by the global setup). */
export const testBuildDir = process.env.TEST_BUILD_DIR ?? path.resolve(import.meta.dirname, '../.build');

export interface TestContext {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  database: Database;
  db: Database['db'];
  config: Config;
  close(): Promise<void>;
}

/** The real app on a fresh database, with test configuration (overridable per test). */
export async function createTestApp(env: Record<string, string> = {}, database?: Database): Promise<TestContext> {
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_URL: TEST_ORIGIN,
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opshub-test-')),
    JOBS: 'off',
    // Tests probe listeners they start on loopback; production refuses loopback unless configured.
    HEALTH_CHECK_ALLOW_CIDRS: '127.0.0.0/8,::1',
    ...env,
  });
  const db = database ?? (await createTestDatabase());
  const deps: AppDeps = {
    config,
    database: db,
    db: db.db,
    logger: createLogger(config.logLevel),
    assets: loadAssets(testBuildDir),
    secret: 'test-secret-test-secret-test-secret-0123456789',
  };
  return { app: createApp(deps), deps, database: db, db: db.db, config, close: () => db.close() };
}

/** Builds request options for a same-origin call: JSON body, Origin header, optional cookie. */
export function jsonRequest(method: string, body?: unknown, cookie?: string): RequestInit {
  const headers: Record<string, string> = { Origin: TEST_ORIGIN };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (cookie) headers.Cookie = cookie;
  return { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}
