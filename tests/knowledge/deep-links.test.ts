import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
});
afterAll(() => t.close());

const html = async (path: string) => (await t.app.request(path, { headers: { Cookie: user.cookie } })).text();
/** The Auto Create KB panel of a page (its <section>). */
const panel = (page: string) => {
  const start = page.indexOf('<section class="card auto-create"');
  expect(start).toBeGreaterThan(0);
  return page.slice(start, page.indexOf('</section>', start));
};

describe('/knowledge-base?autocreate=true (spec §2: opens the Auto Create panel, then is removed from the address)', () => {
  it('renders the panel open: the input stage on the server, Get Started hidden, the island loaded at once', async () => {
    const page = await html('/knowledge-base?autocreate=true');
    const open = panel(page);
    expect(open).toContain('data-open=""');
    expect(open).toContain('Auto Create KB');
    expect(open).toMatch(/data-island-trigger="AutoCreateKb" hidden="">Get Started</);
    expect(open).toContain('placeholder="Paste your content here..."');
    expect(open).toContain('Generate Preview');
    expect(open).toContain('Cancel');
    expect(open).not.toContain('data-load=');
    expect(page).toContain('data-replace-url="/knowledge-base"');
  });

  it('cleans only its own parameter: the filters stay in the address', async () => {
    expect(await html('/knowledge-base?view=list&q=vpn&autocreate=true')).toContain(
      'data-replace-url="/knowledge-base?q=vpn&amp;view=list"',
    );
  });

  it('without the parameter the panel is collapsed: Get Started shown, nothing of the island rendered, no address cleaning', async () => {
    const page = await html('/knowledge-base');
    const collapsed = panel(page);
    expect(collapsed).not.toContain('data-open');
    expect(collapsed).toMatch(/data-island-trigger="AutoCreateKb">Get Started</);
    expect(collapsed).toContain('data-load="interaction" data-client-only=""></app-island>');
    expect(collapsed).not.toContain('Paste your content here...');
    expect(page).not.toContain('data-replace-url');
    expect(await html('/knowledge-base?view=list')).not.toContain('data-replace-url');
  });
});
