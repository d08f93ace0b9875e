import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../src/search/schemas';
import { createTestApp, type TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';
import { readersOf, seedAccessWorld, strangersOf, type AccessWorld } from './fixture';

/** Issue 21, "No leak anywhere": the header search (API and list fragment) and the /search page, per reader. */

let t: TestContext;
let w: AccessWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await seedAccessWorld(t.db);
});
afterAll(() => t.close());

const get = (path: string, u: TestUser) => t.app.request(path, { headers: { Cookie: u.cookie } });

async function api(u: TestUser, q: string, limit = 8): Promise<SearchResult[]> {
  const res = await get(`/api/search?q=${encodeURIComponent(q)}&limit=${limit}`, u);
  expect(res.status).toBe(200);
  return res.json();
}

/** Every surface of the search as text: the API's JSON, the /search page and the header's suggestion fragment. */
async function everySurface(u: TestUser, q: string): Promise<string[]> {
  return [
    JSON.stringify(await api(u, q)),
    await (await get(`/search?q=${encodeURIComponent(q)}`, u)).text(),
    await (await get(`/search/suggest?q=${encodeURIComponent(q)}`, u)).text(),
  ];
}

describe('global search: a restricted item', () => {
  it('never appears for those who may not read it, by title or by a word of its content', async () => {
    for (const [who, u] of strangersOf(w)) {
      for (const q of ['quasar', 'vault', 'passphrase']) {
        for (const text of await everySurface(u, q)) {
          expect(text, `${who}: ${q}`).not.toContain(w.secret.title);
          expect(text, `${who}: ${q}`).not.toContain(w.secret.id);
          expect(text, `${who}: ${q}`).not.toContain('PASSPHRASE');
        }
      }
      expect(
        (await api(u, 'quasar')).map((r) => r.title),
        who,
      ).toEqual([w.open.title]);
    }
  });

  it('appears for the admin, the owner and a user it is shared with', async () => {
    for (const [who, u] of readersOf(w)) {
      const [json, page, suggest] = await everySurface(u, 'quasar');
      for (const text of [json, page, suggest]) expect(text, who).toContain(w.secret.title);
      // Ranked first: its title, tags and content all have the word.
      expect(
        (await api(u, 'quasar')).map((r) => r.title),
        who,
      ).toEqual([w.secret.title, w.open.title]);
      expect(
        (await api(u, 'passphrase')).map((r) => r.id),
        who,
      ).toEqual([w.secret.id]);
    }
  });

  it('filters before the limit: the best readable hit fills the place a hidden one ranked above', async () => {
    expect((await api(w.strangers.editor, 'quasar', 1)).map((r) => r.title)).toEqual([w.open.title]);
    expect((await api(w.owner, 'quasar', 1)).map((r) => r.title)).toEqual([w.secret.title]);
  });
});
