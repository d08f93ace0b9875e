import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../../src/audit/service';
import { auditLog } from '../../src/db/schema';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** GET /api/admin/audit.csv: the same filters as the JSON, streamed in keyset batches, safe in a spreadsheet. */

let t: TestContext;
let auditor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  auditor = await createSignedInUser(t.db, { role: 'auditor', email: 'aud,itor@example.com' });
});
afterAll(() => t.close());

const csv = (query: string, headers: Record<string, string> = {}) => {
  const init = jsonRequest('GET', undefined, auditor.cookie);
  return t.app.request(`/api/admin/audit.csv?${query}`, { ...init, headers: { ...init.headers, ...headers } });
};

/** A minimal RFC 4180 reader (quoted cells with doubled quotes and line breaks), to check what we wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (quoted) {
      cell += ch;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += ch;
    }
  }
  return rows;
}

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks; neutralises formulas (= + - @, tab, CR) with a leading apostrophe', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });
});

describe('GET /api/admin/audit.csv', () => {
  beforeAll(async () => {
    await t.db.insert(auditLog).values([
      {
        actorId: auditor.id,
        action: 'csv.tricky',
        entityType: 'csv',
        entityId: '=HYPERLINK("http://evil","click")',
        details: { note: 'a, "quoted"\nline', formula: '@cmd' },
        createdAt: new Date('2033-01-01T10:00:00Z'),
      },
      { action: '+csv.plus', entityType: 'csv', entityId: '-1', createdAt: new Date('2033-01-01T09:00:00Z') },
    ]);
    await t.db.execute(sql`
      insert into audit_log (action, entity_type, entity_id, created_at)
      select 'bulk', 'csv-bulk', g::text, timestamptz '2034-01-01' + g * interval '1 second'
      from generate_series(1, 2500) g`);
  });

  it('answers CSV as an attachment, one header and one line per event, newest first, cells quoted and safe', async () => {
    const res = await csv('entityType=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit-trail.csv"');
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual(['time', 'actor_id', 'actor_email', 'action', 'entity_type', 'entity_id', 'details']);
    expect(rows).toHaveLength(3);
    const [, tricky, plus] = rows;
    expect(tricky).toEqual([
      '2033-01-01T10:00:00.000Z',
      auditor.id,
      'aud,itor@example.com',
      'csv.tricky',
      'csv',
      `'=HYPERLINK("http://evil","click")`,
      JSON.stringify({ note: 'a, "quoted"\nline', formula: '@cmd' }),
    ]);
    expect(plus).toEqual(['2033-01-01T09:00:00.000Z', '', '', "'+csv.plus", 'csv', "'-1", '{}']);
  });

  it('streams every matching event across keyset batches (no duplicate, no gap), uncompressed as it goes', async () => {
    const res = await csv('entityType=csv-bulk', { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    // The compression middleware would have read the whole stream into memory first: it must leave it alone.
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.body).toBeInstanceOf(ReadableStream);
    const rows = parseCsv(await res.text()).slice(1);
    expect(rows).toHaveLength(2500);
    expect(rows.map((r) => r[5])).toEqual(Array.from({ length: 2500 }, (_, i) => String(2500 - i)));
  });

  it('applies the filters (dates, action) like the JSON', async () => {
    const rows = parseCsv(await (await csv('entityType=csv&from=2033-01-01&to=2033-01-01&action=csv.tricky')).text());
    expect(rows.slice(1).map((r) => r[3])).toEqual(['csv.tricky']);
    const none = parseCsv(await (await csv('entityType=csv&from=2033-01-02')).text());
    expect(none).toHaveLength(1);
  });

  it('refuses bad filters with 400 { message }', async () => {
    const res = await csv('from=someday');
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain('from');
  });
});
