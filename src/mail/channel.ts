import pg from 'pg';
import type { Database } from '../db/client';
import type { Logger } from '../http/logger';

/** Waits before reconnecting a lost listening connection: 1 s, doubling up to 30 s. */
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

export interface Listening {
  /** Stops listening and closes the listening connection. */
  stop(): Promise<void>;
}

/**
 * Calls `onEvent` for every NOTIFY on `channel` (delivered at commit), and also each time listening (re)starts,
 * because notifications sent while no connection listened are lost. PGlite listens in-process; PostgreSQL on a
 * dedicated connection that reconnects with backoff. Resolves once the first attempt to listen has ended.
 */
export async function listenTo(
  database: Database,
  channel: string,
  onEvent: () => void,
  logger: Logger,
): Promise<Listening> {
  if (database.pglite) {
    const unlisten = await database.pglite.listen(channel, onEvent);
    onEvent();
    return { stop: () => unlisten().catch(() => undefined) };
  }
  if (!database.pool) throw new Error('listenTo needs PGlite or a PostgreSQL pool');
  return listenOnPostgres(database.pool.options, channel, onEvent, logger);
}

async function listenOnPostgres(
  options: pg.ClientConfig,
  channel: string,
  onEvent: () => void,
  logger: Logger,
): Promise<Listening> {
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let delay = RECONNECT_MIN_MS;

  const retire = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    void c.end().catch(() => undefined);
    if (stopped) return;
    timer = setTimeout(() => void connect(), delay);
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };

  const connect = async () => {
    // keepAlive finds a dead network; the pool's bounds (connect 5 s, query 10 s) apply to LISTEN too.
    const c = new pg.Client({ ...options, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client = c;
    c.on('notification', (msg) => msg.channel === channel && onEvent());
    c.on('error', (err) => {
      logger.warn({ err, channel }, 'listening connection lost; reconnecting');
      retire(c);
    });
    c.on('end', () => retire(c));
    try {
      await c.connect();
      await c.query(`listen ${pg.escapeIdentifier(channel)}`);
      if (stopped) return void c.end().catch(() => undefined);
      delay = RECONNECT_MIN_MS;
      onEvent();
    } catch (err) {
      logger.warn({ err, channel }, 'could not listen; retrying');
      retire(c);
    }
  };

  await connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
