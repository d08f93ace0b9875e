/** Runs one SQL statement and returns its rows, whichever client answers (PGlite locked or not, node-postgres). */
export type RunSql = (text: string) => Promise<Record<string, unknown>[]>;

/** What a backup says about its database and a restore checks: server version, rows per table, migrations. */
export interface DatabaseFacts {
  postgres: string;
  rows: Record<string, number>;
  migrations: number;
}

/** The row count of every table of the public schema, the applied migrations and the server version. */
export async function readFacts(run: RunSql): Promise<DatabaseFacts> {
  const [head] = await run(
    `select current_setting('server_version') as version,
       to_regclass('drizzle.__drizzle_migrations') is not null as migrated,
       (select string_agg(format('select %L::text as t, count(*)::int as n from public.%I', tablename, tablename),
          ' union all ' order by tablename) from pg_tables where schemaname = 'public') as counts`,
  );
  const rows: Record<string, number> = {};
  if (head?.counts) for (const r of await run(String(head.counts))) rows[String(r.t)] = Number(r.n);
  const [migrations] = head?.migrated
    ? await run('select count(*)::int as n from drizzle.__drizzle_migrations')
    : [{ n: 0 }];
  return { postgres: String(head?.version ?? 'unknown'), rows, migrations: Number(migrations?.n ?? 0) };
}

/** The counts people recognise, for the one line a command prints ("3 users, 120 items, 14 images, 40 servers"). */
export function summarise(facts: Pick<DatabaseFacts, 'rows'>): string {
  const r = facts.rows;
  const part = (n: number | undefined, one: string, many: string) => `${n ?? 0} ${n === 1 ? one : many}`;
  return [
    part(r.users, 'user', 'users'),
    part(r.documents, 'item', 'items'),
    part(r.objects, 'image', 'images'),
    part(r.servers, 'server', 'servers'),
  ].join(', ');
}
