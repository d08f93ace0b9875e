import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config';
import { openDatabase, openPostgres, queryRows, type Database } from '../../src/db/client';
import { isDatabaseUnavailable } from '../../src/db/unavailable';
import { toErrorResponse } from '../../src/http/errors';
import { usingPostgres } from '../helpers/db';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from './private-postgres';

const url = process.env.TEST_DATABASE_URL;
const opened: Database[] = [];
let server: PrivatePostgres | undefined;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.close()));
  await server?.stop();
  server = undefined;
});

describe('the PostgreSQL connection pool', () => {
  it('refuses ?max= in DATABASE_URL, naming DATABASE_POOL_MAX (the pool size is read from there only)', async () => {
    const config = {
      databaseUrl: 'postgres://opshub@127.0.0.1:5432/opshub?max=50',
      databasePoolMax: 10,
      dataDir: '/nonexistent',
    };
    await expect(openDatabase(config)).rejects.toThrow(ConfigError);
    await expect(openDatabase(config)).rejects.toThrow(/DATABASE_POOL_MAX/);
  });

  it.skipIf(!usingPostgres())('opens at most DATABASE_POOL_MAX connections per process', async () => {
    const database = await openDatabase({ databaseUrl: url, databasePoolMax: 2, dataDir: '/nonexistent' });
    opened.push(database);
    const rows = await Promise.all(
      Array.from(
        { length: 6 },
        async () =>
          (await queryRows<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid, pg_sleep(0.2)`))[0],
      ),
    );
    expect(new Set(rows.map((r) => r.pid)).size).toBe(2);
  });

  it.skipIf(!usingPostgres())(
    'turns JIT off on every connection (its compile time dwarfs our short queries)',
    async () => {
      const database = await openDatabase({ databaseUrl: url, databasePoolMax: 2, dataDir: '/nonexistent' });
      opened.push(database);
      const rows = await Promise.all(
        [0, 1].map(
          async () =>
            (
              await queryRows<{ jit: string }>(database.db, sql`select current_setting('jit') as jit, pg_sleep(0.1)`)
            )[0],
        ),
      );
      expect(rows.map((r) => r.jit)).toEqual(['off', 'off']);
    },
  );

  it.skipIf(!usingPostgres())(
    'a request that waits too long for a pooled connection fails in bounded time, as 503 with a message',
    async () => {
      const database = openPostgres(url!, { max: 1 });
      opened.push(database);
      let release!: () => void;
      const held = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await new Promise<void>((r) => (release = r));
      });
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const err = await queryRows(database.db, sql`select 1`).then(
        () => undefined,
        (e: unknown) => e,
      );
      release();
      await held;
      expect(Date.now() - started).toBeLessThan(7_000);
      expect(isDatabaseUnavailable(err)).toBe(true);
      const response = toErrorResponse(err);
      expect(response.status).toBe(503);
      expect(response.body.message).toBe('The database is unavailable. Please try again shortly.');
      expect(response.headers['Retry-After']).toBe('5');
    },
  );

  const noPrivate = !usingPostgres() ? 'runs with TEST_DATABASE_URL only' : privatePostgresUnavailable();
  it.skipIf(!!noPrivate)(
    'a transaction whose begin gets no answer (frozen server) gives its pooled connection back',
    async () => {
      server = await startPrivatePostgres();
      const database = openPostgres(server.url, { max: 1, query_timeout: 500 });
      opened.push(database);
      await queryRows(database.db, sql`select 1`);
      server.freeze();
      const err = await database.db
        .transaction(async (tx) => tx.execute(sql`select 1`))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isDatabaseUnavailable(err)).toBe(true);
      server.thaw();
      // With its only connection kept by the failed transaction, this would wait for a free one and time out.
      expect(await queryRows(database.db, sql`select 2 as n`)).toEqual([{ n: 2 }]);
    },
  );

  it.skipIf(!!noPrivate)(
    'a connection that breaks between the queries of a transaction fails that transaction, not the process',
    async () => {
      server = await startPrivatePostgres();
      const database = openPostgres(server.url, { max: 2 });
      opened.push(database);
      let resume!: () => void;
      const transaction = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await new Promise<void>((r) => (resume = r));
        await tx.execute(sql`select 2`);
      });
      await new Promise((r) => setTimeout(r, 200));
      await server.kill();
      await new Promise((r) => setTimeout(r, 300)); // the connection's 'error' arrives while nobody queries it
      resume();
      expect(
        isDatabaseUnavailable(
          await transaction.then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      ).toBe(true);
      await server.start();
      expect(await queryRows(database.db, sql`select 3 as n`)).toEqual([{ n: 3 }]);
    },
  );
});
