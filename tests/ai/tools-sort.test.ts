import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchServers } from '../../src/ai/tools';
import type { Database } from '../../src/db/client';
import { servers } from '../../src/db/schema';
import { createTestDatabase } from '../helpers/db';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db
    .insert(servers)
    .values(
      ['web-10', 'Web-2', 'web-1', 'WEB-03', 'db-1'].map((name) => ({ name, environment: 'production' as const })),
    );
});
afterAll(() => database.close());

describe("the assistant's server lists", () => {
  it('come in natural name order, ignoring case (web-2 before web-10), as the table shows them', async () => {
    const rows = await searchServers(database.db, { text: 'web' });
    expect(rows.map((r) => r.name)).toEqual(['web-1', 'Web-2', 'WEB-03', 'web-10']);
  });

  it('take the limit after sorting: the first servers by natural order, not by byte order', async () => {
    const rows = await searchServers(database.db, { environment: 'production', limit: 3 });
    expect(rows.map((r) => r.name)).toEqual(['db-1', 'web-1', 'Web-2']);
  });
});
