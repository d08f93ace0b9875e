import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../src/db/schema';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import type { TestUser } from '../helpers/users';
import { readersOf, seedAccessWorld, strangersOf, type AccessWorld } from './fixture';

/** Issue 21, "No leak anywhere": the dashboard's recent list and document totals, per reader. */

let t: TestContext;
let w: AccessWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await seedAccessWorld(t.db);
});
afterAll(() => t.close());

const page = async (u: TestUser) => (await t.app.request('/', { headers: { Cookie: u.cookie } })).text();

/** The Documents stat card's figure and "+N this week". */
function documentsCard(html: string): { total: number; week: number } {
  const m =
    /Documents<\/span><span class="stat-card__value">([\d,]+)<\/span><span class="stat-card__sub">\+([\d,]+) this week/.exec(
      html,
    );
  if (!m) throw new Error('no Documents card');
  return { total: Number(m[1].replace(/,/g, '')), week: Number(m[2].replace(/,/g, '')) };
}

async function analytics(u: TestUser): Promise<{ documents: { total: number } }> {
  const res = await t.app.request('/api/analytics/stats', { headers: { Cookie: u.cookie } });
  expect(res.status).toBe(200);
  return res.json();
}

describe('dashboard: a restricted item', () => {
  it('is absent from the recent list and the totals of those who may not read it', async () => {
    for (const [who, u] of strangersOf(w)) {
      const html = await page(u);
      expect(html, who).toContain(w.open.title);
      expect(html, who).not.toContain(w.secret.title);
      expect(html, who).not.toContain(w.secret.id);
      expect(documentsCard(html), who).toEqual({ total: 1, week: 1 });
      expect((await analytics(u)).documents.total, who).toBe(1);
    }
  });

  it('is listed and counted for the admin, the owner and a user it is shared with', async () => {
    for (const [who, u] of readersOf(w)) {
      const html = await page(u);
      expect(html, who).toContain(w.open.title);
      expect(html, who).toContain(w.secret.title);
      expect(documentsCard(html), who).toEqual({ total: 2, week: 2 });
      expect((await analytics(u)).documents.total, who).toBe(2);
    }
  });

  it('is not counted in the stat cards sent after a health check (htmx)', async () => {
    const post = (u: TestUser) =>
      t.app.request('/dashboard/health-check', {
        method: 'POST',
        headers: { Cookie: u.cookie, Origin: TEST_ORIGIN, 'HX-Request': 'true', 'HX-Current-URL': `${TEST_ORIGIN}/` },
      });
    const stranger = await post(w.strangers.editor);
    expect(stranger.status).toBe(200);
    expect(documentsCard(await stranger.text())).toEqual({ total: 1, week: 1 });
    expect(documentsCard(await (await post(w.owner)).text())).toEqual({ total: 2, week: 2 });
  });

  it('keeps the newest readable items in the recent list when restricted ones are newer (the filter is before the limit)', async () => {
    const newer = Array.from({ length: 6 }, (_, i) => ({
      space: 'knowledge' as const,
      title: `Owner's private note ${i}`,
      content: 'private',
      ownerId: w.owner.id,
      visibility: 'restricted' as const,
    }));
    await t.db.insert(documents).values(newer);
    const html = await page(w.strangers.viewer);
    expect(html).not.toContain("Owner's private note");
    const recent = html.slice(html.indexOf('Recent Knowledge Base'), html.indexOf('Infrastructure Overview'));
    expect(recent).toContain(w.open.title);
    expect(recent).not.toContain('No recent knowledge base articles found');
  });
});
