import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('landing page', () => {
  it('shows the hero, six feature cards, the call to action and the footer', async () => {
    const res = await t.app.request('/');
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const text of [
      'Sign In',
      'Get Started',
      'Smart Documentation',
      'Infrastructure Monitoring',
      'AI Assistant',
      'Team Collaboration',
      'Enterprise Security',
      'High Performance',
      'Start Your Free Trial',
      '2025',
    ]) {
      expect(html).toContain(text);
    }
    expect(html.match(/class="feature-card"/g)).toHaveLength(6);
    expect(html).toContain('href="/register"');
    expect(html).toContain('href="/login"');
  });

  it('ships no React: only boot.js and htmx, and no inline script', async () => {
    const html = await (await t.app.request('/')).text();
    const scripts = [...html.matchAll(/<script([^>]*)>(.*?)<\/script>/g)];
    expect(scripts).toHaveLength(2);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="\/static\/build\/(boot|htmx)-/);
      expect(body).toBe('');
    }
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('<app-island');
  });
});

describe('404', () => {
  it('answers "404 Page Not Found" with status 404 for any unknown path', async () => {
    for (const path of ['/nope', '/knowledge-base-typo/x', '/static-ish']) {
      const res = await t.app.request(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('404 Page Not Found');
    }
  });

  it('answers JSON under /api', async () => {
    const res = await t.app.request('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found.', code: 'not_found' });
  });
});
