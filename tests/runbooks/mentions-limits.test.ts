import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENTION_READS } from '../../src/runbooks/mentions';
import { withoutInlineImages } from '../../src/runbooks/shared';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { runbookCalls } from './helpers';

/** Reading a text for server names costs CPU (issue 23): counted per person, and inline pictures are not read. */

let t: TestContext;
let ada: TestUser;
let bob: TestUser;
const { call, ok, server } = runbookCalls(() => t);

beforeAll(async () => {
  t = await createTestApp();
  ada = await createSignedInUser(t.db, { role: 'editor' });
  bob = await createSignedInUser(t.db, { role: 'viewer' });
  await server(ada, 'weblim');
});
afterAll(() => t.close());

/** An item whose only "mention" of weblim is inside an inline picture. */
const picturePage = () =>
  ok(
    ada,
    'POST',
    '/api/knowledge-base',
    { title: 'Pictures', content: '![x](data:image/png;base64,iVBOR/weblim/Zz==)' },
    201,
  );

describe('mentions: limits', () => {
  it('a picture inline in the text names nothing, even when its base64 holds a server name between slashes', async () => {
    const picture = '![x](data:image/png;base64,iVBORw0K/weblim/Zm9v+YmFy==)';
    expect(withoutInlineImages(`Patch it. ${picture} done`)).toBe('Patch it. ![x]() done');
    const found = await ok(bob, 'GET', `/api/knowledge-base/${(await picturePage()).id}/server-suggestions`);
    expect(found).toEqual([]);
  });

  it(`answers ${MENTION_READS.limit} reads a minute per person, then 429 with Retry-After; others are not held`, async () => {
    for (let i = 0; i < MENTION_READS.limit; i++) {
      const found = await ok(ada, 'POST', '/api/servers/mentions', { text: `Restart weblim (${i})` });
      expect(found.map((s: { name: string }) => s.name)).toEqual(['weblim']);
    }
    const refused = await t.app.request('/api/servers/mentions', {
      method: 'POST',
      headers: { Cookie: ada.cookie, Origin: 'http://localhost:3000', 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'weblim' }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).message).toMatch(/Too many reads for mentioned servers/);
    expect((await call(bob, 'POST', '/api/servers/mentions', { text: 'weblim' })).status).toBe(200);
  });
});
