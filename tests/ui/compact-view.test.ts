import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPreferences } from '../../src/db/schema';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser } from '../helpers/users';

let ctx: TestContext;

/** The opening <html> tag of a page as the given cookie sees it. */
async function htmlTag(path: string, cookie?: string): Promise<string> {
  const res = await ctx.app.request(path, { headers: cookie ? { Cookie: cookie } : {} });
  expect(res.status).toBe(200);
  return /<html[^>]*>/.exec(await res.text())![0];
}

describe('Settings › Compact view', () => {
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('puts the compact class on <html> of every page for a user who turned it on (set on the server)', async () => {
    const user = await createSignedInUser(ctx.db);
    await ctx.db.insert(userPreferences).values({ userId: user.id, compactView: true, theme: 'dark' });
    for (const path of ['/', '/knowledge-base?view=list', '/infrastructure', '/team', '/documents/new']) {
      expect(await htmlTag(path, user.cookie)).toBe('<html lang="en" data-theme="dark" class="compact">');
    }
  });

  it('leaves it off for a user who turned it off, one with no saved preferences, and signed-out pages', async () => {
    const off = await createSignedInUser(ctx.db);
    await ctx.db.insert(userPreferences).values({ userId: off.id, compactView: false });
    const fresh = await createSignedInUser(ctx.db);
    expect(await htmlTag('/', off.cookie)).toBe('<html lang="en">');
    expect(await htmlTag('/infrastructure', fresh.cookie)).toBe('<html lang="en">');
    expect(await htmlTag('/login')).toBe('<html lang="en">');
  });
});
