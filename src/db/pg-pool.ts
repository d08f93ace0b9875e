import pg from 'pg';

/** What pg reports when a query got no answer within query_timeout (a frozen server, a dead network). */
const READ_TIMEOUT = 'Query read timeout';

/**
 * pg.Pool with the two guards an outage needs, so that PostgreSQL going away costs requests, never the process
 * or pool slots:
 * - every connection keeps an 'error' listener for its whole life. pg-pool listens only while a connection is
 *   idle; an 'error' on a checked-out one (the database killed mid-transaction) would otherwise end the process.
 *   The error itself reaches the query that was waiting on the connection.
 * - a checked-out connection that broke, or whose query got no answer, goes back to the pool at once (to be
 *   discarded). drizzle's transaction() releases its connection only once `begin` has succeeded, so without
 *   this a failed `begin` would hold a pool slot for good.
 */
export class GuardedPool extends pg.Pool {
  private readonly inUse = new Set<pg.PoolClient>();

  constructor(config: pg.PoolConfig) {
    super(config);
    this.on('error', () => {}); // an idle connection that broke: the pool discards it, nobody is waiting on it
    this.on('connect', (client) => client.on('error', () => {}));
    this.on('acquire', (client) => this.inUse.add(client));
    this.on('release', (_err, client) => this.inUse.delete(client));
  }

  /** end() waits for every connection in use; past timeoutMs they are closed under their users (their transactions roll back). */
  async endWithin(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([this.end(), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') for (const client of this.inUse) void client.end().catch(() => {});
  }

  connect(): Promise<pg.PoolClient>;
  connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | undefined {
    // The callback form is pool.query's, which releases its connection itself (with the error, if any).
    if (callback) {
      super.connect(callback);
      return undefined;
    }
    return super.connect().then(releasedWhenBroken);
  }
}

function releasedWhenBroken(client: pg.PoolClient): pg.PoolClient {
  const release = client.release;
  const query = client.query;
  let released = false;
  const releaseOnce = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener('error', releaseOnce);
    client.query = query;
    release(err);
  };
  client.on('error', releaseOnce);
  client.release = releaseOnce;
  client.query = function (this: pg.PoolClient, ...args: unknown[]) {
    const result = (query as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) result.catch((err: Error) => err?.message === READ_TIMEOUT && releaseOnce(err));
    return result;
  } as typeof client.query;
  return client;
}
