import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { IslandRoot } from '../../src/ui/Island';
import Counter from '../fixtures/islands/Counter';
import Greeting from '../fixtures/islands/Greeting';
import { hasBrowser, sharedBrowser } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';

let app: RunningApp;
let browser: Browser;

/** Test-only routes rendering the fixture islands (nothing here ships in the app). */
function addFixtureRoutes(ctx: Parameters<NonNullable<Parameters<typeof startApp>[1]>>[0]) {
  const { assets } = ctx.deps;
  ctx.app.get('/fixture', (c) =>
    c.render(
      <main>
        <IslandRoot
          name="Counter"
          component={Counter}
          props={{ start: 5, label: 'Count "</script><b>' }}
          assets={assets}
        />
        <button type="button" hx-get="/fixture/fragment" hx-target="#slot">
          Load more
        </button>
        <div id="slot" />
      </main>,
      { title: 'Fixture', bare: true },
    ),
  );
  ctx.app.get('/fixture/fragment', (c) =>
    c.html(
      // renderToString of the island alone: what an htmx fragment route answers.
      renderToString(<IslandRoot name="Greeting" component={Greeting} props={{ name: 'Ops' }} assets={assets} />),
    ),
  );
}

async function collectConsole(page: Page) {
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') messages.push(m.text());
  });
  page.on('pageerror', (e) => messages.push(e.message));
  return messages;
}

describe.skipIf(!hasBrowser)('foundation in Chromium', () => {
  beforeAll(async () => {
    app = await startApp({}, addFixtureRoutes);
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('shows the landing page with no React and its call to action leading to /register', async () => {
    const page = await browser.newPage();
    const problems = await collectConsole(page);
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto(app.url + '/');
    await expect(page.getByRole('link', { name: 'Start Your Free Trial' }).getAttribute('href')).resolves.toBe(
      '/register',
    );
    expect(await page.locator('.feature-card').count()).toBe(6);
    expect(scripts.filter((s) => !/\/static\/build\/(boot|htmx)-/.test(s))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the 404 page for an unknown path', async () => {
    const page = await browser.newPage();
    const res = await page.goto(app.url + '/no/such/page');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' }).isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('hydrates the fixture island on first load and after an htmx swap, without warnings', async () => {
    const page = await browser.newPage();
    const problems = await collectConsole(page);
    // Whether React had committed the island (its effects ran) when it was marked data-hydrated.
    await page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const r of records) {
          const el = r.target as HTMLElement;
          if (el.dataset.name === 'Counter' && el.hasAttribute('data-hydrated')) {
            (window as unknown as { committedWhenMarked: boolean }).committedWhenMarked =
              !!el.querySelector('[data-committed]');
          }
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-hydrated'] });
    });
    await page.goto(app.url + '/fixture');
    await page.locator('app-island[data-name="Counter"][data-hydrated]').waitFor();
    // Marked only once committed: input typed before that would reach no state.
    expect(
      await page.evaluate(() => (window as unknown as { committedWhenMarked?: boolean }).committedWhenMarked),
    ).toBe(true);
    // Props with quotes and a closing script tag stayed inside their attribute.
    await expect(page.locator('label').textContent()).resolves.toBe('Count "</script><b>');
    await page.getByRole('button', { name: 'Increment' }).click();
    await expect(page.getByTestId('count').textContent()).resolves.toBe('6');

    await page.getByRole('button', { name: 'Load more' }).click();
    await page.locator('app-island[data-name="Greeting"][data-hydrated]').waitFor();
    await page.getByRole('button', { name: 'Greet' }).click();
    await page.getByRole('button', { name: 'Hello, Ops' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
