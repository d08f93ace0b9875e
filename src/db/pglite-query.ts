import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

/** Statements kept prepared at most; past this the cache starts over. The app has a few hundred distinct queries. */
const MAX_STATEMENTS = 300;
/** Bulk inserts (hundreds of parameters) run once each: preparing them would only fill the cache. */
const MAX_PREPARED_PARAMS = 100;
/** "cached plan must not change result type": a table changed shape under a prepared statement. */
const FEATURE_NOT_SUPPORTED = '0A000';

interface Statement {
  name: string;
  paramTypes: number[];
}

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Makes `client.query` send each statement as one message to a prepared statement, as a driver does on a
 * socket. PGlite's own query() calls into the database six times per statement (parse, describe, bind,
 * describe, execute, sync) and plans it anew each time; here the first run of a statement prepares it and
 * learns its parameter types, and every later run is one bind-and-execute call on the cached plan.
 * Results, type conversion and errors are PGlite's own. Transactions keep PGlite's path (tx.query).
 */
export function enablePreparedQueries(client: PGlite): void {
  const original = client.query.bind(client);
  const statements = new Map<string, Statement>();
  let named = 0;

  async function exchange(messages: Uint8Array[], options?: QueryOptions) {
    return client.execProtocolStream(concat(messages), { onNotice: options?.onNotice });
  }

  async function prepare(text: string, options?: QueryOptions): Promise<Statement> {
    if (statements.size >= MAX_STATEMENTS) {
      await exchange([
        ...[...statements.values()].map((s) => serialize.close({ type: 'S', name: s.name })),
        serialize.sync(),
      ]);
      statements.clear();
    }
    const name = `q${++named}`;
    const replies = await exchange(
      [
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ],
      options,
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(replies) };
    statements.set(text, statement);
    return statement;
  }

  async function run<T>(statement: Statement, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const oid = statement.paramTypes[i];
      const toText = options?.serializers?.[oid] ?? client.serializers[oid];
      return toText ? toText(value) : String(value);
    });
    const replies = await exchange(
      [
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ],
      options,
    );
    // PGlite copies its whole parser table (hundreds of types) into the query's own parsers on every call;
    // a table that falls back to PGlite's through its prototype reads the same and costs nothing to make.
    const parsers = options?.parsers ? Object.assign(Object.create(client.parsers), options.parsers) : client.parsers;
    return parse.parseResults(replies, parsers, { ...options, parsers: undefined })[0] as Results<T>;
  }

  async function query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (params.length > MAX_PREPARED_PARAMS || options?.blob) return original<T>(text, params, options);
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const known = statements.get(text);
        try {
          return await run<T>(known ?? (await prepare(text, options)), params, options);
        } catch (err) {
          if (!known || (err as { code?: string }).code !== FEATURE_NOT_SUPPORTED) throw err;
          // The table changed shape since this statement was prepared: prepare it again, once.
          statements.delete(text);
          await exchange([serialize.close({ type: 'S', name: known.name }), serialize.sync()]);
          return run<T>(await prepare(text, options), params, options);
        }
      }),
    );
  }

  client.query = query as PGlite['query'];
}
