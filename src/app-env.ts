import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { Logger } from './http/logger';
import type { Assets } from './ui/assets';
import type { CurrentUser } from './auth/schemas';

/** What createApp needs; tests pass their own. */
export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  logger: Logger;
  assets: Assets;
  /** Secret for signing short-lived links (upload URLs, OIDC state). */
  secret: string;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    logger: Logger;
    requestId: string;
    user: CurrentUser | null;
    /** Hash of the current session token, when signed in. */
    sessionId: string | null;
    /** A personal API token's scope when the request signed in with `Authorization: Bearer`; null otherwise. */
    tokenScope: 'read' | 'read-write' | null;
  };
}
