/**
 * boot.js: the only script on every page (with htmx). Mounts islands on first load and after every
 * htmx swap, unmounts them on cleanup, lazy-loads islands, and wires the shell's few interactions
 * (and the error toast of a failed htmx request).
 * It must not import React: pages without islands ship none.
 */
import { initShell } from './shell';
import { showPageToast, showToast, type ToastDetail } from './toast';
import { initGlobalSearch } from './search';
import { initHtmxErrors } from './htmx-errors';
import './forms'; // show/hide password toggles (accounts)
import { initOfflinePack } from '../offline/browser';

type Unmount = () => void;
type IslandModule = { default: (el: HTMLElement, props: object, prefix: string, clientOnly: boolean) => Unmount };

const mounted = new WeakMap<Element, Unmount>();
const pending = new WeakSet<Element>();

declare global {
  interface Window {
    htmx?: {
      onLoad(cb: (el: Element) => void): void;
      process(el: Element): void;
    };
  }
}

async function mount(el: HTMLElement): Promise<void> {
  if (mounted.has(el) || pending.has(el)) return;
  pending.add(el);
  try {
    const mod = (await import(el.dataset.src!)) as IslandModule;
    if (!el.isConnected) return;
    const props = JSON.parse(el.dataset.props || '{}');
    // The island marks itself data-hydrated once React has committed it (src/client/hydrate.ts).
    mounted.set(el, mod.default(el, props, el.dataset.prefix || '', el.hasAttribute('data-client-only')));
  } catch (error) {
    console.error(`island ${el.dataset.name} failed to load`, error);
  } finally {
    pending.delete(el);
  }
}

/** Mounts now, or when visible / idle / first interacted with (data-load). */
function schedule(el: HTMLElement): void {
  const load = el.dataset.load;
  if (load === 'visible' && 'IntersectionObserver' in window) {
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        io.disconnect();
        void mount(el);
      }
    });
    io.observe(el);
  } else if (load === 'idle') {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 200));
    idle(() => void mount(el));
  } else if (load === 'interaction') {
    const trigger = document.querySelector<HTMLElement>(`[data-island-trigger="${el.dataset.name}"]`) ?? el;
    // Focus or hover only fetches the chunk; the click mounts (a link trigger then stays on the page).
    const prefetch = () => void import(el.dataset.src!).catch(() => {});
    const go = (event: Event) => {
      event.preventDefault();
      trigger.removeEventListener('click', go);
      trigger.removeEventListener('focusin', prefetch);
      trigger.removeEventListener('pointerenter', prefetch);
      el.hidden = false;
      void mount(el).then(() => el.dispatchEvent(new CustomEvent('island:activate', { bubbles: true })));
    };
    trigger.addEventListener('click', go);
    trigger.addEventListener('focusin', prefetch, { once: true });
    trigger.addEventListener('pointerenter', prefetch, { once: true });
  } else {
    void mount(el);
  }
}

function mountAll(root: Element | Document): void {
  const self = root instanceof HTMLElement && root.tagName === 'APP-ISLAND' ? [root] : [];
  for (const el of [...self, ...root.querySelectorAll<HTMLElement>('app-island')]) schedule(el);
}

function unmountAll(root: Element): void {
  const els = root.tagName === 'APP-ISLAND' ? [root] : [...root.querySelectorAll('app-island')];
  for (const el of els) {
    mounted.get(el)?.();
    mounted.delete(el);
  }
}

function start(): void {
  initShell();
  initGlobalSearch();
  initHtmxErrors();
  initOfflinePack();
  document.body.addEventListener('showToast', (e) => showToast((e as CustomEvent<ToastDetail>).detail));
  showPageToast();
  if (window.htmx) {
    window.htmx.onLoad((el) => mountAll(el));
    document.body.addEventListener('htmx:beforeCleanupElement', (e) => unmountAll(e.target as Element));
  } else {
    mountAll(document);
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
