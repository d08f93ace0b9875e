import { randomUUID } from 'node:crypto';
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { createItem } from '../../src/knowledge/service';
import { saveObject } from '../../src/objects/service';
import { sessions } from '../../src/db/schema';
import {
  freePort,
  hasBrowser,
  htmxSettled,
  listen,
  sharedBrowser,
  signedInPage as signedInPageOf,
} from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';

/** These tests are about the worker: their pages let it in. */
const signedInPage: typeof signedInPageOf = (browser, url, cookie, options = {}) =>
  signedInPageOf(browser, url, cookie, { serviceWorkers: 'allow', ...options });

/**
 * The offline runbook pack (issue 25) in Chromium. The browser talks to the app through a loopback proxy (APP_URL is
 * the proxy's address) that records what reaches the server and can stand in for a gateway whose app is down (502),
 * drop a connection, or hold an answer back. Offline is context.setOffline.
 */
let app: RunningApp;
let proxy: Proxy;
/** The app's address as the browser sees it (the proxy). */
let base: string;
let browser: Browser;
let reader: TestUser;
let author: TestUser;
let runbook: { id: string; title: string };
let other: { id: string; title: string };
const imageId = randomUUID();

// A 1×1 PNG.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

const SAVED = /Saved \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2}\s?[ap]m/;
const SIGNED_OUT = 'Signed out on this device; the server session ends when you are back online.';

/** One request that reached the proxy. */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}
/** Answers a request itself (true) or lets it through to the app (false). */
type Rule = (seen: Seen, res: ServerResponse) => boolean;
interface Proxy {
  seen: Seen[];
  rule: Rule | null;
  close(): Promise<void>;
}

/** A loopback proxy in front of the app on `port` (a gateway: 502 and friends come from here). */
function startProxy(port: number, target: number): Promise<Proxy> {
  const proxy: Proxy = { seen: [], rule: null, close: async () => {} };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const seen = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers };
    proxy.seen.push(seen);
    if (proxy.rule?.(seen, res)) return req.resume();
    const up = forward(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(proxy)));
}

/** A gateway's answer when the app behind it is down. */
const badGateway = (res: ServerResponse) => {
  res.writeHead(502, { 'Content-Type': 'text/html' });
  res.end('<h1>502 Bad Gateway</h1>');
  return true;
};
/** The service worker's own fetches (a page's navigation, image or script are not `empty`; htmx's are, but send HX-Request). */
const byWorker = (s: Seen) => s.headers['sec-fetch-dest'] === 'empty' && !s.headers['hx-request'];
/** How many of the worker's GETs of `path` reached the server. */
const workerGets = (path: string) =>
  proxy.seen.filter((s) => s.method === 'GET' && s.path === path && byWorker(s)).length;

/** Our caches (the pack's) in this browser, by name. */
const packCaches = (page: Page) =>
  page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('opshub-offline-')));

/** Whether the worker has saved `path` (a page, an image or /offline). */
const isSaved = (page: Page, path: string) => page.evaluate(async (p) => !!(await caches.match(p)), path);

interface PackRecord {
  userId: string;
  syncedAt: string;
  items: { key: string; savedAt: string | null; triedAt?: string; images: string[] }[];
}
/** The pack's record (written last by a finished refresh), or null. */
const record = (page: Page): Promise<PackRecord | null> =>
  page.evaluate(async () => (await (await caches.match('/__offline-pack__'))?.json()) ?? null);

/** Whether a finished refresh has the item's page saved. */
const isPacked = async (page: Page, key: string) =>
  (await record(page))?.items.some((i) => i.key === key && i.savedAt) ?? false;

/** Resolves once the worker has saved the item's page (polled: waitForFunction does not wait for a promise). */
const packed = (page: Page, key: string) => expect.poll(() => isPacked(page, key), { timeout: 15_000 }).toBe(true);

/** Asks the worker for a refresh now (as keeping an item does) and waits until it has finished. */
async function refresh(page: Page) {
  const before = (await record(page))?.syncedAt;
  await page.evaluate(() => navigator.serviceWorker.controller?.postMessage({ type: 'sync', force: true }));
  await expect.poll(async () => (await record(page))?.syncedAt, { timeout: 15_000 }).not.toBe(before);
}

/** A signed-in page of `user` with the worker in charge, the item kept and saved. */
async function keptPage(user: TestUser, item: { id: string }) {
  const opened = await signedInPage(browser, base, user.cookie);
  const path = `/knowledge-base/${item.id}`;
  await opened.page.goto(`${base}${path}`);
  await opened.page.waitForFunction(() => !!navigator.serviceWorker.controller);
  await opened.page.getByRole('button', { name: 'Keep offline' }).click();
  await packed(opened.page, path);
  return { ...opened, path };
}

/** The app's own page headers (what the worker's pages must carry too). */
async function appHeaders() {
  const res = await fetch(`${app.url}/login`);
  return { csp: res.headers.get('content-security-policy'), nosniff: res.headers.get('x-content-type-options') };
}

describe.skipIf(!hasBrowser)('the offline runbook pack in Chromium', () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await startApp({ APP_URL: base });
    proxy = await startProxy(port, Number(new URL(app.url).port));
    browser = await sharedBrowser();
    author = await createSignedInUser(app.db, { role: 'editor', firstName: 'Ada' });
    reader = await createSignedInUser(app.db, { role: 'viewer', firstName: 'Vic' });
    await saveObject(app.db, imageId, author.id, 'image/png', PNG);
    runbook = await createItem(
      app.db,
      'knowledge',
      {
        title: 'Restart the payment gateway',
        content: `## Steps\n\n1. Drain the node.\n2. Restart the service.\n\n![Gateway diagram](/objects/${imageId})`,
      },
      author.id,
    );
    other = await createItem(app.db, 'knowledge', { title: 'Not kept at all', content: 'Online only.' }, author.id);
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.stop();
  });

  it('keeps a runbook, reads it offline (saved time, image, styles), lists it, refuses writes, and empties on sign-out', async () => {
    const { context, page, problems } = await signedInPage(browser, base, reader.cookie, {
      viewport: { width: 1366, height: 768 },
    });
    const path = `/knowledge-base/${runbook.id}`;
    await page.goto(`${base}${path}`);
    // The registration line in boot.js: the worker takes charge of the page.
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);

    await page.getByRole('button', { name: 'Keep offline' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Keep offline', pressed: true }).count()).toBe(1);
    await htmxSettled(page);
    expect(await page.getByText('Kept offline', { exact: false }).first().isVisible()).toBe(true);
    // The worker saves the page, its image and the /offline list in the background.
    await packed(page, path);
    for (const file of [path, `/objects/${imageId}`, '/offline']) expect(await isSaved(page, file)).toBe(true);
    expect(problems).toEqual([]);

    // Offline: the reload is answered with the saved copy, which says when it was saved.
    await context.setOffline(true);
    await page.reload();
    const banner = page.locator('.offline-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(new RegExp(`^You are offline\\. ${SAVED.source}\\.$`));
    expect(await page.locator('h1.doc__title').textContent()).toBe(runbook.title);
    expect(await page.getByText('Restart the service.').isVisible()).toBe(true);
    // Its image came from the pack too.
    const img = page.getByRole('img', { name: 'Gateway diagram' });
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1);
    const fromPack = await page.evaluate(async (src) => {
      const res = await fetch(src, { cache: 'no-store' });
      return [res.status, res.headers.get('content-type')];
    }, `/objects/${imageId}`);
    expect(fromPack).toEqual([200, 'image/png']);
    // The shell came along: the stylesheet applies (the sidebar and content in a grid, the banner tinted).
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.shell')!).display)).toBe('grid');
    expect(await banner.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');

    // A write (htmx: Keep offline off) is refused with the worker's message, shown as a toast.
    await page.getByRole('button', { name: 'Keep offline' }).click();
    const toast = page.locator('.toast--error');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Saving needs a connection');
    expect(await page.getByRole('button', { name: 'Keep offline', pressed: true }).count()).toBe(1);

    // /offline lists it, with when this browser saved it.
    await page.goto(`${base}/offline`);
    const entry = page.locator(`[data-offline-item="${path}"]`);
    await entry.waitFor();
    expect(await entry.getByRole('link', { name: runbook.title }).isVisible()).toBe(true);
    expect(await entry.locator('.offline-list__saved').textContent()).toMatch(SAVED);
    expect(await page.locator('.offline-banner').textContent()).toMatch(SAVED);

    // A form without htmx (Remove) posts as a page: the answer says the same in a page of its own, styled, with the
    // app's security headers.
    const { csp, nosniff } = await appHeaders();
    const refusal = page.waitForResponse((r) => r.request().method() === 'POST');
    await entry.getByRole('button', { name: /^Remove/ }).click();
    await page.getByRole('heading', { name: 'You are offline' }).waitFor();
    expect(await page.locator('.error-page p').textContent()).toContain('Saving needs a connection');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.error-page')!).display)).toBe('flex');
    const refusalHeaders = (await refusal).headers();
    expect(refusalHeaders['content-security-policy']).toBe(csp);
    expect(refusalHeaders['x-content-type-options']).toBe(nosniff);

    // A page that is not kept points to what is (the worker's page: the app's CSP, no framing, nosniff).
    const notKept = await page.goto(`${base}/knowledge-base/${other.id}`);
    expect(await page.getByText('This page is not kept offline.').isVisible()).toBe(true);
    expect(notKept?.headers()['content-security-policy']).toBe(csp);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(notKept?.headers()['x-content-type-options']).toBe('nosniff');
    await page.getByRole('link', { name: 'See what is kept offline' }).click();
    await page.waitForURL(`${base}/offline`);
    await entry.waitFor();

    // Back online: pages come from the server again; a form post is the browser's own (not forwarded by the worker).
    await context.setOffline(false);
    await page.goto(`${base}${path}`);
    expect(await page.locator('.offline-banner').count()).toBe(0);
    await page.goto(`${base}/offline`);
    await entry.getByRole('button', { name: /^Remove/ }).click();
    await page.getByRole('heading', { name: 'Kept by you' }).waitFor();
    expect(page.url()).toBe(`${base}/offline`);
    expect(await page.getByText('Nothing kept yet').isVisible()).toBe(true);
    const post = proxy.seen.findLast((s) => s.method === 'POST' && s.path === `${path}/offline`);
    expect(post?.headers).toMatchObject({ 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', origin: base });
    // …and the worker lets the page go (the page the form led to refreshed the pack at once).
    await expect.poll(() => isSaved(page, path)).toBe(false);

    // Kept again, then sign out: the worker empties the pack itself (the landing page here has no script to ask it).
    await page.goto(`${base}${path}`);
    await page.getByRole('button', { name: 'Keep offline' }).click();
    await packed(page, path);
    expect(await packCaches(page)).not.toEqual([]);
    proxy.rule = (s, res) => {
      if (s.path !== '/') return false;
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!DOCTYPE html><title>Landing</title><h1>Landing</h1>');
      return true;
    };
    try {
      const nav = page.getByRole('complementary', { name: 'Main navigation' });
      await nav.getByRole('link', { name: 'Sign Out' }).click();
      await page.waitForURL(`${base}/`);
      await page.getByRole('heading', { name: 'Landing' }).waitFor();
      expect(await packCaches(page)).toEqual([]);
    } finally {
      proxy.rule = null;
    }
    expect(await app.db.select().from(sessions).where(eq(sessions.userId, reader.id))).toEqual([]);
    // Offline again, the page is gone from this browser.
    await context.setOffline(true);
    await page.goto(`${base}${path}`);
    expect(await page.getByText('This page is not kept offline.').isVisible()).toBe(true);
    await context.close();
  }, 120_000);

  it('a 502/503/504 from the gateway serves the saved copy saying the server is unreachable; form posts wait', async () => {
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const { context, page, path } = await keptPage(user, runbook);
    const navigations = (s: Seen) => s.headers['sec-fetch-mode'] === 'navigate';
    try {
      for (const status of [502, 503, 504]) {
        proxy.rule = (s, res) => {
          if (!navigations(s)) return false;
          res.writeHead(status, { 'Content-Type': 'text/plain' });
          res.end(`${status} from the gateway`);
          return true;
        };
        await page.goto(`${base}${path}`);
        const banner = page.locator('.offline-banner');
        await banner.waitFor();
        expect(await banner.textContent()).toMatch(new RegExp(`^Server unreachable\\. ${SAVED.source}\\.$`));
        expect(await page.locator('h1.doc__title').textContent()).toBe(runbook.title);
      }
      // /offline too; a page that is not kept gets the gateway's own answer.
      await page.goto(`${base}/offline`);
      expect(await page.locator('.offline-banner strong').textContent()).toBe('Server unreachable.');
      const entry = page.locator(`[data-offline-item="${path}"]`);
      await entry.waitFor();
      const notKept = await page.goto(`${base}/knowledge-base/${other.id}`);
      expect(notKept?.status()).toBe(504);

      // Right after, a form post is refused without being sent; the worker then looks whether the server is back.
      proxy.rule = (s, res) => navigations(s) && s.method === 'GET' && badGateway(res);
      await page.goto(`${base}/offline`);
      const posts = () => proxy.seen.filter((s) => s.method === 'POST').length;
      const before = posts();
      await entry.getByRole('button', { name: /^Remove/ }).click();
      await page.getByRole('heading', { name: 'Server unreachable' }).waitFor();
      expect(await page.locator('.error-page p').textContent()).toContain('this change was not sent');
      expect(posts()).toBe(before);
      // The server answers (/healthz): trying again goes out as the browser's own post.
      await expect.poll(() => proxy.seen.some((s) => s.path === '/healthz')).toBe(true);
      proxy.rule = null;
      await page.goto(`${base}/offline`);
      await entry.getByRole('button', { name: /^Remove/ }).click();
      await page.getByRole('heading', { name: 'Kept by you' }).waitFor();
      expect(posts()).toBe(before + 1);
    } finally {
      proxy.rule = null;
      await context.close();
    }
  }, 60_000);

  it('a connection that fails while the browser says online: the saved copy, and "may not have been saved"', async () => {
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const { context, page, path } = await keptPage(user, runbook);
    try {
      // Keep offline off (htmx) loses its connection: whether the server saw it is unknown.
      proxy.rule = (s, res) => {
        if (s.method !== 'POST') return false;
        res.socket?.destroy();
        return true;
      };
      await page.getByRole('button', { name: 'Keep offline' }).click();
      const toast = page.locator('.toast--error');
      await toast.waitFor();
      expect(await toast.textContent()).toContain('this change may not have been saved');
      expect(await page.evaluate(() => navigator.onLine)).toBe(true);
      // A page whose connection fails is read from the pack.
      proxy.rule = (s, res) => {
        if (s.headers['sec-fetch-mode'] !== 'navigate') return false;
        res.socket?.destroy();
        return true;
      };
      await page.goto(`${base}${path}`);
      expect(await page.locator('.offline-banner strong').textContent()).toBe('Server unreachable.');
    } finally {
      proxy.rule = null;
      await context.close();
    }
  }, 60_000);

  it('signing out offline (link or script) empties the pack first; the session ends when the server is back', async () => {
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const { context, page, path } = await keptPage(user, runbook);
    await context.setOffline(true);
    await page.goto(`${base}${path}`);
    await page.locator('.offline-banner').waitFor();
    // The Sign Out link of the saved page: the worker's own page says what happened; the pack is gone.
    const nav = page.getByRole('complementary', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Sign Out' }).click();
    await page.getByText(SIGNED_OUT).waitFor();
    expect(await packCaches(page)).toEqual([]);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.error-page')!).display)).toBe('flex');
    expect(await app.db.select().from(sessions).where(eq(sessions.userId, user.id))).not.toEqual([]);
    await page.goto(`${base}${path}`);
    expect(await page.getByText('This page is not kept offline.').isVisible()).toBe(true);
    // Back online: the next page ends the server session first, so it is a signed-out one.
    await context.setOffline(false);
    await page.goto(`${base}${path}`);
    await page.waitForURL(/\/login/);
    expect(await app.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await page.evaluate(() => caches.has('opshub-sign-out'))).toBe(false);
    await context.close();

    // A script's POST /api/auth/logout offline: the same, in JSON.
    const second = await createSignedInUser(app.db, { role: 'viewer' });
    const kept = await keptPage(second, runbook);
    await kept.context.setOffline(true);
    const answer = await kept.page.evaluate(async () => {
      const res = await fetch('/api/auth/logout', { method: 'POST' });
      return [res.status, (await res.json()).message];
    });
    expect(answer).toEqual([200, SIGNED_OUT]);
    expect(await packCaches(kept.page)).toEqual([]);
    await kept.context.close();
  }, 90_000);

  it('another user signed in on this browser: the pack is emptied at once, whatever the throttle', async () => {
    const first = await createSignedInUser(app.db, { role: 'viewer' });
    const { context, page, path } = await keptPage(first, runbook);
    expect((await record(page))?.userId).toBe(first.id);
    // Someone else signs in (a new session cookie), within a minute of the last refresh.
    const second = await createSignedInUser(app.db, { role: 'viewer' });
    const [name, value] = second.cookie.split('=');
    await context.clearCookies();
    await context.addCookies([{ name, value, url: base }]);
    await page.goto(`${base}/knowledge-base/${other.id}`);
    await expect.poll(() => isSaved(page, path), { timeout: 5_000 }).toBe(false);
    await expect.poll(async () => (await record(page))?.userId ?? null, { timeout: 5_000 }).not.toBe(first.id);
    await context.close();
  }, 60_000);

  it('a pack not refreshed for 14 days is cleared, not shown, with a word why', async () => {
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const { context, page, path } = await keptPage(user, runbook);
    await context.setOffline(true);
    await page.evaluate(async () => {
      const cache = await caches.open('opshub-offline-pages');
      const old = await (await cache.match('/__offline-pack__'))!.json();
      old.syncedAt = new Date(Date.now() - 15 * 86_400_000).toISOString();
      await cache.put('/__offline-pack__', new Response(JSON.stringify(old)));
    });
    await page.goto(`${base}${path}`);
    await page.getByRole('heading', { name: 'Offline pack expired' }).waitFor();
    expect(await page.locator('.error-page p').textContent()).toContain('more than 14 days ago');
    expect(await packCaches(page)).toEqual([]);
    await context.close();
  }, 60_000);

  it('a refresh throttles across worker restarts, backs off a page it could not save, and saves /offline on change', async () => {
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const { context, page } = await keptPage(user, runbook);
    const lists = () => workerGets('/api/me/offline');
    try {
      // The browser stops an idle worker; the next page starts it again: still within a minute of the last refresh.
      const cdp = await context.newCDPSession(page);
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      const before = lists();
      await page.goto(`${base}/knowledge-base/${other.id}`);
      await page.waitForFunction(() => !!navigator.serviceWorker.controller);
      // Only the refresh asked here runs (the page's own, unforced, is throttled).
      await refresh(page);
      expect(lists()).toBe(before + 1);

      // /offline is saved again only when the list changed.
      const lists0 = workerGets('/offline');
      await refresh(page);
      expect(workerGets('/offline')).toBe(lists0);

      // A kept page the worker cannot save is not asked again at every refresh.
      const broken = await createItem(app.db, 'knowledge', { title: 'Broken page', content: 'x' }, author.id);
      const key = `/knowledge-base/${broken.id}`;
      proxy.rule = (s, res) => s.path === key && byWorker(s) && badGateway(res);
      const kept = await page.evaluate(
        (id) =>
          fetch('/api/me/offline', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ itemId: id }),
          }).then((r) => r.status),
        broken.id,
      );
      expect(kept).toBe(201);
      await expect.poll(async () => (await record(page))?.items.find((i) => i.key === key)?.triedAt).toBeTruthy();
      expect(workerGets(key)).toBe(1);
      // The list changed (a new item): /offline was saved again.
      expect(workerGets('/offline')).toBe(lists0 + 1);
      await refresh(page);
      await refresh(page);
      expect(workerGets(key)).toBe(1);
      expect((await record(page))?.items.find((i) => i.key === key)?.savedAt).toBeNull();
    } finally {
      proxy.rule = null;
      await context.close();
    }
  }, 60_000);

  it('saves the images a page shows (30 at most, each once, none too big), not the files it links to', async () => {
    const ids = Array.from({ length: 31 }, () => randomUUID());
    for (const id of ids) await saveObject(app.db, id, author.id, 'image/png', PNG);
    const linked = randomUUID();
    const huge = randomUUID();
    await saveObject(app.db, linked, author.id, 'image/png', PNG);
    await saveObject(app.db, huge, author.id, 'image/png', PNG);
    const gallery = await createItem(
      app.db,
      'knowledge',
      {
        title: 'Rack photos',
        content: `[The manual](/objects/${linked})\n\n${ids.map((id, i) => `![Photo ${i}](/objects/${id})`).join('\n\n')}`,
      },
      author.id,
    );
    const twin = await createItem(
      app.db,
      'knowledge',
      { title: 'Rack photos again', content: `![First photo](/objects/${ids[0]})\n\n![Huge](/objects/${huge})` },
      author.id,
    );
    // To the worker, the huge image says it is 150 MB (more than the pack may hold) and trickles: it must not read it.
    proxy.rule = (s, res) => {
      if (s.path !== `/objects/${huge}` || !byWorker(s)) return false;
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(150 * 1024 * 1024) });
      res.write(PNG);
      return true;
    };
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const { context, page } = await keptPage(user, gallery);
    try {
      const saved = async (paths: string[]) => {
        const found = [];
        for (const p of paths) if (await isSaved(page, p)) found.push(p);
        return found;
      };
      const images = ids.map((id) => `/objects/${id}`);
      expect(await saved(images)).toEqual(images.slice(0, 30));
      expect(await isSaved(page, `/objects/${linked}`)).toBe(false);
      expect(workerGets(`/objects/${ids[0]}`)).toBe(1);
      // Another page with the same image and the huge one: the first is not fetched again, the huge one is left out.
      await page.goto(`${base}/knowledge-base/${twin.id}`);
      await page.getByRole('button', { name: 'Keep offline' }).click();
      await packed(page, `/knowledge-base/${twin.id}`);
      expect(workerGets(`/objects/${ids[0]}`)).toBe(1);
      expect(await isSaved(page, `/objects/${huge}`)).toBe(false);
      const entry = (await record(page))?.items.find((i) => i.key === `/knowledge-base/${twin.id}`);
      expect(entry?.images).toEqual([`/objects/${ids[0]}`]);
    } finally {
      proxy.rule = null;
      await context.close();
    }
  }, 90_000);

  it('a sign-out while the list is on its way cancels that refresh', async () => {
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const { context, page, path } = await keptPage(user, runbook);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = false;
    try {
      // The list is held at the proxy: the app's answer waits until released.
      proxy.rule = (s, res) => {
        if (s.path !== '/api/me/offline' || asked) return false;
        asked = true;
        void held.then(async () => {
          const answer = await fetch(`${app.url}/api/me/offline`, { headers: { Cookie: user.cookie } });
          res.writeHead(answer.status, { 'Content-Type': 'application/json' });
          res.end(await answer.text());
        });
        return true;
      };
      await page.evaluate(() => navigator.serviceWorker.controller?.postMessage({ type: 'sync', force: true }));
      await expect.poll(() => asked).toBe(true);
      // Signed out (a signed-out page tells the worker), then the list arrives.
      await page.evaluate(() => navigator.serviceWorker.controller?.postMessage({ type: 'clear' }));
      await expect.poll(() => packCaches(page)).toEqual([]);
      const pages = workerGets(path);
      release();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(workerGets(path)).toBe(pages);
      expect(await packCaches(page)).toEqual([]);
    } finally {
      proxy.rule = null;
      release();
      await context.close();
    }
  }, 60_000);

  it('a session ended elsewhere (not by this browser) empties the pack at the next page', async () => {
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const { context, page } = await keptPage(user, runbook);
    // Signed out on the server (another device, an admin, expiry): the next page is a signed-out one.
    await app.db.delete(sessions).where(eq(sessions.userId, user.id));
    await page.goto(`${base}/knowledge-base/${runbook.id}`);
    await page.waitForURL(/\/login/);
    await expect.poll(() => packCaches(page)).toEqual([]);
    await context.close();
  }, 60_000);

  it('forms of another site reach the server as the browser sent them: they can neither post nor sign out', async () => {
    const user = await createSignedInUser(app.db, { role: 'viewer' });
    const port = await freePort();
    // Another site (localhost is not 127.0.0.1): a form posting to the app and a link to sign out.
    const evil = await listen(
      () =>
        new Response(
          `<form method="post" action="${base}/knowledge-base/${other.id}/offline"><input name="keep" value="on"><button>Post</button></form><a href="${base}/api/logout">Sign out</a>`,
          { headers: { 'Content-Type': 'text/html' } },
        ),
      port,
    );
    const { context, page, path } = await keptPage(user, runbook);
    try {
      await page.goto(`http://localhost:${port}/`);
      await page.getByRole('button', { name: 'Post' }).click();
      await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
      const post = proxy.seen.findLast((s) => s.method === 'POST' && s.path === `/knowledge-base/${other.id}/offline`);
      // Not forwarded by the worker (a forwarded post reaches the server as `sec-fetch-dest: empty`).
      expect(post?.headers).toMatchObject({
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
        origin: `http://localhost:${port}`,
      });
      await page.goto(`http://localhost:${port}/`);
      await page.getByRole('link', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign out?' }).waitFor();
      // Still signed in, the pack kept, the other item not kept.
      expect(await isPacked(page, path)).toBe(true);
      await page.goto(`${base}/knowledge-base/${other.id}`);
      expect(await page.getByRole('button', { name: 'Keep offline', pressed: false }).count()).toBe(1);
    } finally {
      await context.close();
      await evil.close();
    }
  }, 60_000);
});
