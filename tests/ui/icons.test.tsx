import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Icon, iconSprite, iconSpriteUrl } from '../../src/ui/icons';
import { createTestApp, type TestContext } from '../helpers/app';
import { createSignedInUser } from '../helpers/users';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('icon sprite', () => {
  it('draws an icon from its symbol in the sprite, decorative unless labelled', () => {
    const html = renderToStaticMarkup(<Icon name="database" />);
    expect(html).toBe(
      `<svg class="icon" width="20" height="20" aria-hidden="true"><use href="${iconSpriteUrl}#database"></use></svg>`,
    );
    expect(renderToStaticMarkup(<Icon name="database" label="Database server" />)).toContain(
      'role="img" aria-label="Database server"',
    );
    expect(iconSprite).toMatch(
      /<symbol id="database" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><ellipse /,
    );
  });

  it('serves the sprite under a name that changes with its content, cached for a year', async () => {
    expect(iconSpriteUrl).toMatch(/^\/static\/icons-[0-9a-f]{12}\.svg$/);
    const res = await t.app.request(iconSpriteUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(iconSprite);
    expect((await t.app.request('/static/icons-000000000000.svg')).status).toBe(404);
  });

  it('every icon a page uses is a symbol of the sprite, and no page repeats icon paths', async () => {
    const user = await createSignedInUser(t.db);
    const html = await (await t.app.request('/', { headers: { Cookie: user.cookie } })).text();
    const used = [...html.matchAll(/<use href="([^"#]+)#([^"]+)"/g)];
    expect(used.length).toBeGreaterThan(10);
    for (const [, url, name] of used) {
      expect(url).toBe(iconSpriteUrl);
      expect(iconSprite, name).toContain(`<symbol id="${name}"`);
    }
    expect(html).not.toMatch(/<svg[^>]*><path/);
  });
});
