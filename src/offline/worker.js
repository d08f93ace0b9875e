/*
 * Offline runbook pack, part 1 (issue 25; src/offline/): answering. Served at /sw.js after the push handlers
 * (static/sw.js) and before worker-pack.js (saving).
 * Saves the pages the signed-in user keeps (GET /api/me/offline), their images and the app shell in this browser;
 * offline, or when the server cannot be reached (no answer, or 502/503/504 from what is in front of it), it answers a
 * kept page with its saved copy and a line saying so, /offline with the list, any other page with a pointer to
 * /offline. A pack not refreshed for PACK_MAX_AGE_MS is cleared instead of shown. Form posts are the browser's own
 * (never forwarded by the worker) except when they cannot reach the server: then they are refused in words. Signing
 * out empties the pack first; offline, the server session is ended at the next connection. Only same-origin GETs of
 * kept pages, their images and the shell are saved.
 */
const PREFIX = 'opshub-offline-';
const PAGES = `${PREFIX}pages`;
const SHELL = `${PREFIX}shell`;
/** The pack's own record (who it belongs to, what is saved when): a key no request ever asks. */
const META = '/__offline-pack__';
/** A sign-out made without the server, to end its session at the next connection (not a pack cache: it outlives it). */
const SIGN_OUT = 'opshub-sign-out';
const ITEM_KEY = /^\/(?:knowledge-base|documents)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** A pack not refreshed for this long is cleared rather than shown: runbooks that old may mislead. */
const PACK_MAX_AGE_DAYS = 14;
const PACK_MAX_AGE_MS = PACK_MAX_AGE_DAYS * 86_400_000;
/** What a proxy or load balancer answers when the app behind it is down: the server is unreachable. */
const UNREACHABLE = new Set([502, 503, 504]);
/** After the server could not be reached, form posts are refused here (not sent) this long, or until it answers. */
const DOWN_FOR_MS = 30_000;
/** The app's own headers (src/http/secure-headers.ts) on every page the worker writes itself. */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
  'X-Offline': '1',
};
const SAID = {
  offline: 'You are offline: this change was not saved. Saving needs a connection; try again when you are back online.',
  notSent: 'The server cannot be reached just now: this change was not sent. Try again in a moment.',
  maybe: 'The server could not be reached: this change may not have been saved. Check once the server answers again.',
  signedOut: 'Signed out on this device; the server session ends when you are back online.',
};

/** Writes that change what is kept (keep, let go): the pack is refreshed at once after them. */
const PACK_WRITE = /\/offline(\/|$)/;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(Promise.all([self.clients.claim(), self.registration.navigationPreload?.enable()]));
});

self.addEventListener('message', (event) => {
  const data = event.data ?? {};
  if (data.type === 'sync') event.waitUntil(checkUser(data.user).then((other) => sync(!!data.force || other)));
  else if (data.type === 'clear') event.waitUntil(clearPack());
});

self.addEventListener('periodicsync', (event) => {
  if (event.tag === 'offline-pack') event.waitUntil(sync(true));
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const offline = self.navigator.onLine === false;
  if (isSignOut(req, url)) return signOutEvent(event, offline);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    // A write that cannot reach the server is refused here; any other goes out as the browser sent it.
    if (offline || isDown()) return event.respondWith(refused(event, offline ? 'offline' : 'notSent'));
    if (PACK_WRITE.test(url.pathname)) {
      // Our page's script (htmx): its answer is seen. A form (a navigation, maybe from another site) is not touched:
      // the page it leads to refreshes the pack at once.
      if (req.mode === 'navigate') dirty = true;
      else event.respondWith(write(event));
    }
    return;
  }
  if (req.method !== 'GET') return;
  if (req.mode === 'navigate') return event.respondWith(navigate(event, url));
  if (known.has(url.pathname + url.search)) return event.respondWith(asset(req));
  // htmx's own requests (a badge, a count): offline they change nothing rather than raise an error each.
  if (offline && req.headers.get('HX-Request')) event.respondWith(new Response(null, { status: 204 }));
});

/** The server could not be reached (until DOWN_FOR_MS passes or an answer comes). */
let downUntil = 0;
const isDown = () => Date.now() < downUntil;
const markDown = () => {
  downUntil = Date.now() + DOWN_FOR_MS;
};
const markUp = () => {
  downUntil = 0;
};
/** Whether the server answered `res` itself (not a gateway saying it is down); notes which. */
function reached(res) {
  if (UNREACHABLE.has(res.status)) markDown();
  else markUp();
  return !UNREACHABLE.has(res.status);
}

/** A sign-out still to tell the server (made offline), known at once after a restart. */
let signOutPending = false;
const signOutLoaded = caches
  .has(SIGN_OUT)
  .then((has) => {
    signOutPending = has;
  })
  .catch(() => {});

async function setSignOutPending(on) {
  signOutPending = on;
  if (on) await (await caches.open(SIGN_OUT)).put('/', new Response('1'));
  else await caches.delete(SIGN_OUT);
}

/** Ends the server session of a sign-out made offline: true once it is ended (or none was waiting). */
async function finishSignOut() {
  await signOutLoaded;
  if (!signOutPending) return true;
  try {
    const res = await fetch('/api/auth/logout', { method: 'POST', redirect: 'manual', cache: 'no-store' });
    if (!reached(res)) return false;
  } catch {
    markDown();
    return false;
  }
  await setSignOutPending(false);
  return true;
}

const isSignOut = (req, url) =>
  (req.method === 'GET' && req.mode === 'navigate' && url.pathname === '/api/logout') ||
  (req.method === 'POST' && url.pathname === '/api/auth/logout');
/** Our pages' request: a script of a page we control, or a navigation from one of our pages (its referrer). */
const fromOurPage = (req) => req.mode !== 'navigate' || req.referrer.startsWith(`${self.location.origin}/`);

/**
 * Signing out. From our pages: the pack is emptied first, then the server is told; when it cannot be, this device is
 * signed out all the same and the server's session ends at the next connection. From another site (a link, a form):
 * online the browser asks the server as it would without us (which asks again, or refuses); offline we ask.
 */
function signOutEvent(event, offline) {
  if (fromOurPage(event.request)) event.respondWith(signOut(event, offline));
  else if (offline) event.respondWith(askSignOut());
}

async function signOut(event, offline) {
  const style = await clearKeepingStyle();
  if (!offline) {
    try {
      const req = event.request;
      const res = req.method === 'GET' ? (await event.preloadResponse) || (await fetch(req)) : await fetch(req);
      if (reached(res)) return res;
    } catch {
      markDown();
    }
  }
  await setSignOutPending(true);
  if (event.request.mode !== 'navigate') return json(SAID.signedOut, 'signed_out', 200);
  const body = `<main class="error-page"><h1>Signed out</h1><p class="muted">${SAID.signedOut}</p><a class="btn btn--primary" href="/login">Sign in</a></main>`;
  return html(body, 'Signed out', 200, style);
}

/** Offline, another site's link to sign out: a button of ours does it (its post comes from our page). */
function askSignOut() {
  const body = `<main class="error-page"><h1>Sign out?</h1><form method="post" action="/api/auth/logout"><button class="btn btn--primary" type="submit">Sign out</button></form></main>`;
  return html(body, 'Sign out', 200);
}

/** Keeping or letting go of an item (our page's script): to the network, then the pack refreshed at once. */
async function write(event) {
  let res;
  try {
    res = await fetch(event.request);
  } catch {
    markDown();
    return refused(event, self.navigator.onLine === false ? 'offline' : 'maybe');
  }
  if (reached(res) && res.ok) {
    dirty = true;
    event.waitUntil(sync(true));
  }
  return res;
}

/**
 * Pages from the network (preloaded); when it has no answer, or a gateway says the server is down, the saved copy or
 * /offline; with no answer at all, also a page saying what is kept.
 */
async function navigate(event, url) {
  let res;
  try {
    res = await networkPage(event);
  } catch {
    markDown();
    return (await fromPack(url, self.navigator.onLine === false ? 'offline' : 'unreachable')) ?? notKept();
  }
  if (!reached(res)) return (await fromPack(url, 'unreachable')) ?? res;
  event.waitUntil(sync(false));
  return res;
}

/** The page from the network. A sign-out made offline is told to the server first (the preload went with it on). */
async function networkPage(event) {
  await signOutLoaded;
  if (!signOutPending) return (await event.preloadResponse) || (await fetch(event.request));
  event.waitUntil(Promise.resolve(event.preloadResponse).catch(() => {}));
  if (!(await finishSignOut())) throw new Error('unreachable');
  return fetch(event.request);
}

/** A saved file (hashed static files, images by id, icons: none changes under its address), else the network. */
async function asset(req) {
  return (await caches.match(req, { ignoreVary: true })) || fetch(req);
}

/** A write that did not (or may not) reach the server: a page for a form (our stylesheet, if saved), else JSON. */
async function refused(event, why) {
  // Not sent because the server was down a moment ago: see whether it is back, so that trying again goes through.
  if (why === 'notSent') event.waitUntil(probe());
  const said = SAID[why];
  if (event.request.mode !== 'navigate') return json(said, why === 'offline' ? 'offline' : 'unreachable', 503);
  await knownLoaded;
  const title = why === 'offline' ? 'You are offline' : 'Server unreachable';
  const body = `<main class="error-page"><h1>${title}</h1><p class="muted">${said}</p><a class="btn btn--primary" href="/offline">Offline pack</a></main>`;
  return html(body, title, 503);
}

async function probe() {
  try {
    reached(await fetch('/healthz', { cache: 'no-store' }));
  } catch {}
}

function json(message, code, status) {
  const headers = { ...PAGE_HEADERS, 'Content-Type': 'application/json' };
  return new Response(JSON.stringify({ message, code }), { status, headers });
}

async function readMeta() {
  const res = await caches.match(META, { cacheName: PAGES });
  return res ? res.json() : null;
}

/** "27 Nov 2026, 4:05 pm" in the user's timezone, as the app writes times. */
function when(iso, meta) {
  if (!iso) return 'never';
  const options = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat('en-AU', { ...options, timeZone: meta?.timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat('en-AU', options).format(new Date(iso));
  }
}

const esc = (s) => String(s).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
/** The item key of a read page's path (`/knowledge-base/{id}`, slug and sub-pages left off). */
const itemKeyOf = (path) => ITEM_KEY.exec(path)?.[0];

/**
 * A page the worker writes: the app's headers, no script, the pack's stylesheet (`css`, worker-pack.js) linked, or
 * `style` inline when the pack (with the stylesheet) has just been emptied.
 */
function html(body, title, status, style) {
  const link = style
    ? `<style>${style.replace(/<\//g, '<\\/')}</style>`
    : css
      ? `<link rel="stylesheet" href="${esc(css)}">`
      : '';
  const doc = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)} · Ops Hub</title>${link}</head><body>${body}</body></html>`;
  return new Response(doc, { status, headers: { ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=utf-8' } });
}

/** The line at the top of a page shown from the pack: offline, or the server unreachable, and when it was saved. */
function bannerOf(why, savedAt, meta) {
  const said = why === 'offline' ? 'You are offline.' : 'Server unreachable.';
  const saved = savedAt === undefined ? '' : ` Saved ${esc(when(savedAt, meta))}.`;
  return `<p class="offline-banner" role="status"><strong>${said}</strong>${saved}</p>`;
}

/** A saved page with the banner at the top of its content. */
async function withBanner(res, meta, why, edit = (s) => s) {
  const banner = bannerOf(why, res.headers.get('X-Offline-Saved-At'), meta);
  let page = edit(await res.text());
  page = /<main\b[^>]*>/.test(page)
    ? page.replace(/<main\b[^>]*>/, (m) => m + banner)
    : page.replace(/<body\b[^>]*>/, (m) => m + banner);
  const headers = new Headers(res.headers);
  headers.delete('X-Offline-Saved-At');
  return new Response(page, { status: 200, headers });
}

/** The pack's answer for a page: its saved copy, /offline, a word that the pack expired; null when not kept. */
async function fromPack(url, why) {
  await knownLoaded;
  const meta = await readMeta().catch(() => null);
  if (!meta) return null;
  if (!(Date.now() - Date.parse(meta.syncedAt) < PACK_MAX_AGE_MS)) {
    const style = await clearKeepingStyle();
    const body = `<main class="error-page"><h1>Offline pack expired</h1><p class="muted">This browser's offline pack was last refreshed ${esc(when(meta.syncedAt, meta))}, more than ${PACK_MAX_AGE_DAYS} days ago, so it was cleared rather than shown: runbooks that old may mislead. Open Ops Hub online to save them again.</p></main>`;
    return html(body, 'Offline pack expired', 503, style);
  }
  const key = itemKeyOf(url.pathname);
  const item = meta.items.find((i) => i.key === key && (url.pathname === i.key || url.pathname === i.url));
  const saved = item?.savedAt && (await caches.match(item.key, { cacheName: PAGES }));
  if (saved) return withBanner(saved, meta, why);
  if (url.pathname !== '/offline') return null;
  const list = await caches.match('/offline', { cacheName: SHELL });
  if (list) return withBanner(list, meta, why, (page) => markSaved(page, meta));
  return builtList(meta, why);
}

function notKept() {
  const body = `<main class="error-page"><h1>You are offline</h1><p class="muted">This page is not kept offline.</p><a class="btn btn--primary" href="/offline">See what is kept offline</a></main>`;
  return html(body, 'Offline', 503);
}

/** The saved /offline page with each entry's saved time (or that it is not saved in this browser). */
function markSaved(page, meta) {
  const byKey = new Map((meta?.items ?? []).map((i) => [i.key, i]));
  return page.replace(/(data-offline-saved="([^"]+)"[^>]*>)(<\/span>)/g, (_, open, key, close) => {
    const item = byKey.get(key);
    return `${open}${item?.savedAt ? `Saved ${esc(when(item.savedAt, meta))}` : 'Not saved in this browser'}${close}`;
  });
}

/** /offline made from the pack's record alone (its saved copy is missing). */
function builtList(meta, why) {
  const items = (meta?.items ?? []).filter((i) => i.savedAt);
  const rows = items
    .map(
      (i) =>
        `<li><a href="${esc(i.url)}">${esc(i.title)}</a> <span class="small muted">Saved ${esc(when(i.savedAt, meta))}</span></li>`,
    )
    .join('');
  const body = `<main class="content"><h1>Offline pack</h1>${bannerOf(why)}${rows ? `<ul class="offline-list">${rows}</ul>` : '<p>Nothing is kept offline in this browser.</p>'}</main>`;
  return html(body, 'Offline pack', 200);
}
