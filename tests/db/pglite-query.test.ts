import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enablePreparedQueries } from '../../src/db/pglite-query';

let plain: PGlite;
let prepared: PGlite;

const setup = `
  create table items (id uuid primary key default gen_random_uuid(), n int, big bigint, price numeric(8,2), ok boolean,
    at timestamptz, day date, tags text[], data jsonb, raw bytea, note text);
  insert into items (id, n, big, price, ok, at, day, tags, data, raw, note) values
    ('00000000-0000-4000-8000-000000000001', 1, 9007199254740993, 12.50, true, '2026-11-23T10:00:00Z', '2026-11-23', '{a,"b c"}', '{"x": [1, 2]}', '\\x0102', 'first'),
    ('00000000-0000-4000-8000-000000000002', 2, null, null, false, null, null, '{}', null, null, null);`;

beforeAll(async () => {
  plain = await PGlite.create();
  prepared = await PGlite.create();
  enablePreparedQueries(prepared);
  for (const db of [plain, prepared]) await db.exec(setup);
});
afterAll(async () => {
  await plain.close();
  await prepared.close();
});

/** How often a statement was planned once for all runs (generic) or anew (custom), from PostgreSQL itself. */
async function planCounts(db: PGlite, text: string) {
  const { rows } = await db.query<{ generic_plans: number; custom_plans: number }>(
    'select generic_plans::int, custom_plans::int from pg_prepared_statements where statement = $1',
    [text],
  );
  return rows;
}

describe('enablePreparedQueries (PGlite)', () => {
  it("answers exactly as PGlite's own query, for every column type, parameter type and row mode", async () => {
    const cases: [string, unknown[], object?][] = [
      ['select * from items order by n', []],
      ['select * from items where n = $1', [1], { rowMode: 'array' }],
      [
        'select $1::timestamptz as at, $2::text[] as tags, $3::jsonb as data, $4::boolean as ok, $5::int as none',
        [new Date('2026-01-02T03:04:05Z'), ['x', 'y "z"'], { a: [1, { b: null }] }, false, null],
      ],
      [
        'select at, day from items where tags && $1',
        [['a']],
        { parsers: { [types.TIMESTAMPTZ]: (v: string) => v, [types.DATE]: (v: string) => v } },
      ],
      ['update items set note = $1 where n = $2 returning n, note', ['second', 2]],
      ['delete from items where n = $1', [42]],
    ];
    for (const [text, params, options] of cases) {
      const expected = await plain.query(text, params, options);
      const actual = await prepared.query(text, params, options);
      expect(actual, text).toEqual(expected);
    }
  });

  it('prepares a statement once and runs it from then on without planning it again', async () => {
    const text = 'select n, note from items where n > $1 order by n';
    for (let i = 0; i < 8; i++) expect((await prepared.query(text, [0])).rows).toHaveLength(2);
    const [counts] = await planCounts(prepared, text);
    expect(counts.generic_plans + counts.custom_plans).toBe(8);
    expect(counts.generic_plans).toBeGreaterThan(0);
  });

  it('reports errors as PGlite does, with their codes, and goes on working afterwards', async () => {
    await expect(prepared.query('selec 1')).rejects.toMatchObject({ code: '42601' });
    await expect(prepared.query('select * from items where id = $1', ['not-a-uuid'])).rejects.toMatchObject({
      code: '22P02',
    });
    await expect(prepared.query('insert into items (id) select id from items limit 1')).rejects.toMatchObject({
      code: '23505',
    });
    expect((await prepared.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('prepares a statement again when its table changes shape', async () => {
    await prepared.exec('create table shapes (a int); insert into shapes values (1)');
    expect((await prepared.query('select * from shapes')).rows).toEqual([{ a: 1 }]);
    await prepared.exec('alter table shapes add column b text');
    expect((await prepared.query('select * from shapes')).rows).toEqual([{ a: 1, b: null }]);
  });

  it('keeps a bounded number of statements, and runs bulk statements without keeping them', async () => {
    for (let i = 0; i < 320; i++) await prepared.query(`select ${i} as n`);
    const { rows } = await prepared.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
    expect(rows[0].n).toBeLessThanOrEqual(301);
    const values = Array.from({ length: 150 }, (_, i) => i);
    const bulk = `select ${values.map((i) => `$${i + 1}::int`).join(' + ')} as total`;
    expect((await prepared.query<{ total: number }>(bulk, values)).rows).toEqual([{ total: 11175 }]);
    expect(await planCounts(prepared, bulk)).toEqual([]);
  });

  it('waits for a running transaction instead of running inside it', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = prepared.transaction(async (tx) => {
      await tx.query("insert into items (n, note) values (3, 'in transaction')");
      await held;
      order.push('commit');
    });
    const outside = prepared.query<{ n: number }>('select count(*)::int as n from items where n = 3').then((r) => {
      order.push('outside query');
      return r.rows[0].n;
    });
    await new Promise((r) => setTimeout(r, 50));
    release();
    await transaction;
    expect(await outside).toBe(1);
    expect(order).toEqual(['commit', 'outside query']);
  });
});
