/*
 * Offline runbook pack, part 2 (src/offline/): saving. Served at /sw.js after worker.js (same scope: one script).
 * A refresh asks GET /api/me/offline, saves each new or changed kept page with its images (at most IMAGES_PER_PAGE,
 * each once: an image never changes under its address) and the shell files they load, within PACK_MAX_BYTES in all,
 * drops what is no longer kept, saves /offline when the list changed, and records who the pack belongs to and when
 * it was refreshed; an answer that the user is signed out (or another user's list) empties it first. A page that
 * could not be saved is tried again after a growing pause. Only same-origin GETs that answered 200 without a
 * redirect are saved.
 */
/** An online page refreshes the pack at most this often (the record's syncedAt: a restarted worker knows it too). */
const SYNC_EVERY_MS = 60_000;
/** An unchanged page is saved again after this long (its Servers panel shows live state). */
const RESAVE_AFTER_MS = 6 * 3600_000;
/** A page that could not be saved is tried again after 1, 2, 4 … minutes, then every RESAVE_AFTER_MS at most. */
const RETRY_AFTER_MS = 60_000;
/** Images saved with one page at most (the first ones it shows). */
const IMAGES_PER_PAGE = 30;
/** The pack's pages and images in all at most (less when the browser gives this site less room). */
const PACK_MAX_BYTES = 100 * 1024 * 1024;
/** Headers a saved page keeps (its CSP among them); cookies and caching headers are not kept. */
const KEPT_HEADERS = [
  'content-type',
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
];

/** Bumped when the pack is emptied: a refresh still under way then stores nothing more. */
let generation = 0;
/** The saved files' addresses (images and shell): only these requests are answered from the pack (worker.js). */
let known = new Set();
/** The saved stylesheet's address, for the pages worker.js writes. */
let css;
/** When the last refresh started (this worker's), or finished (the record's, read at start). */
let lastSync = 0;
const knownLoaded = readMeta()
  .then((meta) => {
    remember(meta);
    lastSync = Date.parse(meta?.syncedAt ?? '') || 0;
  })
  .catch(() => {});

/** The refresh under way, and whether a forced one asked meanwhile runs right after it. */
let running = null;
let again = false;
/** What the user keeps changed (a form went by): the next refresh runs whatever the throttle. */
let dirty = false;

/** Empties the pack (every cache of ours); a refresh under way stores nothing more. */
async function clearPack() {
  generation++;
  known = new Set();
  css = undefined;
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(PREFIX)).map((n) => caches.delete(n)));
}

/** Empties the pack; resolves to its stylesheet's text, read first (a page saying so is styled with it inline). */
// biome-ignore lint/correctness/noUnusedVariables: worker.js calls it (both are one script at /sw.js)
async function clearKeepingStyle() {
  await knownLoaded;
  const sheet = css ? await caches.match(css).catch(() => null) : null;
  const text = sheet ? sheet.text().catch(() => '') : '';
  await clearPack();
  return text;
}

/** Empties the pack at once when it is another user's than the page's (whatever the throttle); true then. */
// biome-ignore lint/correctness/noUnusedVariables: worker.js calls it (both are one script at /sw.js)
async function checkUser(user) {
  const meta = user && (await readMeta().catch(() => null));
  if (!meta || meta.userId === user) return false;
  await clearPack();
  return true;
}

/** One refresh at a time; a forced one asked meanwhile runs right after. Unforced, only every SYNC_EVERY_MS. */
// biome-ignore lint/correctness/noUnusedVariables: worker.js calls it (both are one script at /sw.js)
function sync(force) {
  if (running) {
    if (force || dirty) again = true;
    return running;
  }
  running = (async () => {
    await knownLoaded;
    let go = force || dirty || again || Date.now() - lastSync >= SYNC_EVERY_MS;
    while (go) {
      again = false;
      dirty = false;
      lastSync = Date.now();
      await syncOnce().catch(() => {});
      go = again;
    }
  })().finally(() => {
    running = null;
  });
  return running;
}

/** The addresses a page loads: our stylesheets, scripts and icons (shell) and the images it shows (/objects/). */
function refsOf(page) {
  const own = (ref) => ref.startsWith('/') && !ref.startsWith('//');
  const shell = new Set();
  for (const [, attr] of page.matchAll(/\s(?:src|href)="([^"]+)"/g)) {
    const path = attr.replace(/&amp;/g, '&').split('#')[0];
    if (own(path) && /^\/static\/.+\.(css|js|svg|png|ico|woff2?)$/.test(path)) shell.add(path);
  }
  // Images the page shows (<img src>), not the files it links to.
  const images = new Set();
  for (const [, attr] of page.matchAll(/<img\b[^>]*?\ssrc="([^"]+)"/g)) {
    const path = attr.replace(/&amp;/g, '&').split('#')[0];
    if (own(path) && path.startsWith('/objects/')) images.add(path);
  }
  return { shell: [...shell], images: [...images].slice(0, IMAGES_PER_PAGE) };
}

/** A copy fit to keep: the body and the headers it needs, with when it was saved; and its size. */
async function keepable(res, savedAt) {
  const headers = new Headers();
  for (const name of KEPT_HEADERS) if (res.headers.has(name)) headers.set(name, res.headers.get(name));
  if (savedAt) headers.set('X-Offline-Saved-At', savedAt);
  const body = await res.blob();
  return { copy: new Response(body, { status: 200, headers }), bytes: body.size };
}

/** GET of our own address that answered 200 without a redirect (a sign-in page is never saved for a page). */
async function fetchOwn(path) {
  const res = await fetch(path, { credentials: 'same-origin', redirect: 'manual', cache: 'no-store' });
  return res.ok && res.type === 'basic' && !res.redirected ? res : null;
}

/**
 * The bytes a refresh keeps: what it counted so far (each page and image once) against the room it has. `had` is the
 * previous record's sizes (a file kept as it was is counted at its size then).
 */
async function ledgerOf(meta) {
  const had = meta?.sizes ?? {};
  let room = PACK_MAX_BYTES;
  try {
    const { usage = 0, quota = 0 } = await self.navigator.storage.estimate();
    const ours = Object.values(had).reduce((a, b) => a + b, 0);
    if (quota) room = Math.min(room, ours + (quota - usage) * 0.8);
  } catch {}
  const sizes = new Map();
  let used = 0;
  return {
    sizes,
    fits: (bytes) => used + bytes <= room,
    count(path, bytes = had[path] ?? 0) {
      if (sizes.has(path)) return;
      sizes.set(path, bytes);
      used += bytes;
    },
  };
}

/**
 * The item's entry as it was (its older copy and images counted, its last failure remembered) with the list's facts;
 * `tried`: this refresh failed to save it.
 */
function kept(item, key, was, ledger, tried) {
  const retry = tried ?? (was?.triedAt ? { triedAt: was.triedAt, failures: was.failures } : {});
  if (!was?.savedAt) return { ...item, key, savedAt: null, images: [], shell: [], ...retry };
  ledger.count(key);
  for (const image of was.images ?? []) ledger.count(image);
  return { ...was, ...item, key, stamp: was.stamp, ...retry };
}

/** The page's saved copy may stay: current (same stamp, not old), or failed lately (its pause is not over). */
function mayWait(item, was) {
  if (was?.triedAt)
    return Date.now() - Date.parse(was.triedAt) < Math.min(RETRY_AFTER_MS * 2 ** (was.failures - 1), RESAVE_AFTER_MS);
  return !!was?.savedAt && was.stamp === item.stamp && Date.now() - Date.parse(was.savedAt) < RESAVE_AFTER_MS;
}

/**
 * Saves one item's page and the images it shows (those saved already are not fetched again); when the page cannot
 * be saved, its older copy stays and it is tried again after a pause. null when the pack was emptied meanwhile.
 */
async function savePage(pages, item, key, was, ledger, live) {
  const failed = () =>
    kept(item, key, was, ledger, { triedAt: new Date().toISOString(), failures: (was?.failures ?? 0) + 1 });
  const res = await fetchOwn(key).catch(() => null);
  if (!live()) return null;
  if (!res || !(res.headers.get('content-type') ?? '').includes('text/html')) return failed();
  const savedAt = new Date().toISOString();
  const { copy, bytes } = await keepable(res, savedAt);
  if (!ledger.fits(bytes)) return failed();
  const refs = refsOf(await copy.clone().text());
  if (!live()) return null;
  await pages.put(key, copy);
  ledger.count(key, bytes);
  const images = [];
  for (const image of refs.images) {
    if (await pages.match(image)) {
      ledger.count(image);
      images.push(image);
      continue;
    }
    const img = await fetchOwn(image).catch(() => null);
    if (!live()) return null;
    const size = Number(img?.headers.get('content-length')) || 0;
    if (!img || !/^image\//.test(img.headers.get('content-type') ?? '') || !ledger.fits(size)) {
      await img?.body?.cancel().catch(() => {});
      continue;
    }
    const saved = await keepable(img).catch(() => null);
    if (!live()) return null;
    if (!saved || !ledger.fits(saved.bytes)) continue;
    await pages.put(image, saved.copy);
    ledger.count(image, saved.bytes);
    known.add(image);
    images.push(image);
  }
  return { ...item, key, savedAt, images, shell: refs.shell };
}

/** Saves the shell files not saved yet (hashed ones never change; the others are fetched again) and drops old ones. */
async function saveShell(shell, refs, live) {
  for (const ref of refs) {
    if (!ref.startsWith('/') || ref.startsWith('//')) continue;
    const immutable = ref.startsWith('/static/build/') || ref.startsWith('/static/icons-');
    if (immutable && (await shell.match(ref))) continue;
    const res = await fetchOwn(ref).catch(() => null);
    if (!live()) return;
    if (res) {
      await shell.put(ref, (await keepable(res)).copy);
      known.add(ref);
    }
  }
  for (const req of await shell.keys()) {
    const path = new URL(req.url).pathname;
    if (path !== '/offline' && !refs.has(path)) await shell.delete(req);
  }
}

/** One refresh: the list from the server, each changed page saved again, what is no longer kept dropped. */
async function syncOnce() {
  // Taken before the list is asked: a sign-out while it is on its way cancels this refresh.
  let gen = generation;
  const live = () => gen === generation;
  if (!(await finishSignOut()) || !live()) return;
  let listed;
  try {
    listed = await fetch('/api/me/offline', { credentials: 'same-origin', cache: 'no-store' });
  } catch {
    return markDown();
  }
  if (!reached(listed) || !live()) return;
  if (listed.status === 401 || listed.status === 403) return clearPack();
  if (!listed.ok) return;
  const pack = await listed.json();
  let meta = await readMeta();
  if (!live()) return;
  if (meta && meta.userId !== pack.userId) {
    await clearPack();
    gen = generation;
    meta = null;
  }
  const pages = await caches.open(PAGES);
  const shell = await caches.open(SHELL);
  const before = new Map((meta?.items ?? []).map((i) => [i.key, i]));
  const ledger = await ledgerOf(meta);
  const shellRefs = new Set(pack.shell);
  const items = [];
  for (const item of pack.items) {
    const key = itemKeyOf(new URL(item.url, self.location.origin).pathname);
    if (!key) continue;
    const was = before.get(key);
    const entry = mayWait(item, was)
      ? kept(item, key, was, ledger)
      : await savePage(pages, item, key, was, ledger, live);
    if (!entry || !live()) return;
    for (const ref of entry.shell ?? []) shellRefs.add(ref);
    items.push(entry);
  }
  // What is no longer kept goes: pages, and images no kept page shows.
  for (const req of await pages.keys()) {
    const { pathname, search } = new URL(req.url);
    if (pathname !== META && !ledger.sizes.has(pathname + search)) await pages.delete(req);
  }
  await saveShell(shell, shellRefs, live);
  // The list as the server shows it, saved again only when it changed (or is missing).
  const listStamp = JSON.stringify([pack.items, pack.shell, pack.timeZone]);
  let listSaved = listStamp === meta?.listStamp && !!(await shell.match('/offline'));
  if (!listSaved) {
    const list = await fetchOwn('/offline').catch(() => null);
    if (!live()) return;
    if (list) await shell.put('/offline', (await keepable(list, new Date().toISOString())).copy);
    listSaved = !!list;
  }
  if (!live()) return;
  // Last: the record, so a refresh cut short leaves the previous one (and a finished one is seen whole).
  const record = {
    userId: pack.userId,
    timeZone: pack.timeZone,
    shell: pack.shell,
    shellRefs: [...shellRefs],
    syncedAt: new Date().toISOString(),
    listStamp: listSaved ? listStamp : null,
    sizes: Object.fromEntries(ledger.sizes),
    items,
  };
  await pages.put(META, new Response(JSON.stringify(record), { headers: { 'Content-Type': 'application/json' } }));
  remember(record);
}

/** Keeps the addresses of the saved files at hand (the fetch handler decides without waiting). */
function remember(meta) {
  known = new Set([...(meta?.shellRefs ?? []), ...(meta?.items ?? []).flatMap((i) => i.images ?? [])]);
  css = meta?.shell?.[0];
}
