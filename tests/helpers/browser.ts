import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasBrowser = existsSync(CHROMIUM);

if (!hasBrowser) {
  if (process.env.E2E_REQUIRED === '1')
    throw new Error(`E2E_REQUIRED=1 but no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  console.warn(`[e2e] skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
}

/** Debian's Chromium, headless, with no network chatter. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The worker's Chromium, kept on globalThis: the test helpers are evaluated anew for each file, the browser is not. */
const shared = globalThis as typeof globalThis & { opshubChromium?: Promise<Browser> };

/**
 * One Chromium per test worker, shared by the browser test files it runs one after the other (launching costs about
 * a second a file). Each file makes its own contexts (cookies, storage); what an earlier file left open is closed
 * here. Do not close the browser: it goes with the worker process.
 */
export async function sharedBrowser(): Promise<Browser> {
  let browser = await shared.opshubChromium?.catch(() => undefined);
  if (!browser?.isConnected()) {
    shared.opshubChromium = launchBrowser();
    browser = await shared.opshubChromium;
  }
  await Promise.all(browser.contexts().map((context) => context.close()));
  return browser;
}

/** Playwright's own console note when a context blocks service workers (signedInContext does, unless asked). */
export const isBlockedWorkerNote = (text: string) => text === 'Service Worker registration blocked by Playwright';

/**
 * A new context of browser (its own cookies and storage) that sends the session cookie of a signed-in user. The
 * offline pack's service worker is blocked unless a test asks for it (`serviceWorkers: 'allow'`): once a worker
 * controls a page, page.route no longer sees its navigations, and only the offline tests are about the worker.
 */
export async function signedInContext(
  browser: Browser,
  appUrl: string,
  cookie: string,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block', ...options });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: appUrl }]);
  return context;
}

/**
 * A page in a new signed-in context that collects the page's errors and console errors (a test asserts none);
 * "Failed to load resource" lines are the browser's own note of a 4xx a test provokes.
 */
export async function signedInPage(
  browser: Browser,
  appUrl: string,
  cookie: string,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await signedInContext(browser, appUrl, cookie, options);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() !== 'error' || m.text().includes('Failed to load resource')) return;
    if (isBlockedWorkerNote(m.text())) return;
    // A request replaced by a newer one (hx-sync "replace", e.g. typing on in a search box) is aborted by design;
    // htmx logs that abort and the afterRequest just before it as errors.
    if (m.text().startsWith('htmx:sendAbort')) {
      if (problems.at(-1)?.startsWith('htmx:afterRequest')) problems.pop();
      return;
    }
    problems.push(m.text());
  });
  return { context, page, problems };
}

/** A free loopback port (so APP_URL can be known before the app is built). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Serves a fetch handler on 127.0.0.1:port; returns a closer. close() also drops every connection still open:
 * Chromium preconnects sockets it may never send a request on, and server.close() alone would wait for Node's
 * headers timeout (60 s) to end them.
 */
export function listen(
  fetch: (req: Request) => Response | Promise<Response>,
  port: number,
): Promise<{ server: ServerType; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port, hostname: '127.0.0.1' }, () =>
      resolve({
        server,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            (server as HttpServer).closeAllConnections();
          }),
      }),
    );
  });
}

/**
 * Resolves once htmx has no request, swap or settle under way. htmx wires swapped-in content only after
 * its settle delay, so typing into or clicking new content before then is not seen by htmx.
 */
export function htmxSettled(page: Page): Promise<unknown> {
  return page.waitForFunction(() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling'));
}

/**
 * Runs `act` and resolves once a toast whose title is `title` is shown. The page reports it from an observer set
 * before `act`, so a toast the page shows just before leaving (the editor goes to the saved item 600 ms after its
 * "Success") is not missed by a busy machine's polling.
 */
export async function toastDuring(page: Page, title: string, act: () => Promise<unknown>): Promise<void> {
  const shown = page.evaluate(
    (title) =>
      new Promise<true>((resolve) => {
        const box = document.getElementById('toasts')!;
        const seen = () => [...box.querySelectorAll('*')].some((el) => el.textContent?.trim() === title);
        new MutationObserver(() => seen() && resolve(true)).observe(box, {
          childList: true,
          subtree: true,
          characterData: true,
        });
      }),
    title,
  );
  await act();
  await shown;
}
