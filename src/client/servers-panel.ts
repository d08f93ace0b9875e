/**
 * The read page's Servers panel, kept fresh while the reader looks at it: its HTML is asked again every
 * `data-poll-ms` (SERVERS_PANEL_POLL_MS unless the server configured otherwise), only while the tab is visible, never
 * twice within that time; a tab that becomes visible after longer asks at once. No panel, no request.
 */
import { SERVERS_PANEL_POLL_MS } from '../runbooks/shared';

/** The panel's id (src/runbooks/views/ServersPanel.tsx). */
const PANEL_ID = 'servers-panel';

const panelNow = () => document.getElementById(PANEL_ID);
const visible = () => document.visibilityState === 'visible';
/** Only an address of this app (the server renders it; anything else is not followed). */
const isOwnPath = (url: string | undefined): url is string => !!url && url.startsWith('/') && !url.startsWith('//');

/** The fresh panel in place of the old one; an empty answer (no server linked any more) removes it. */
function swap(panel: HTMLElement, html: string): void {
  const template = document.createElement('template');
  template.innerHTML = html;
  const fresh = template.content.getElementById(PANEL_ID);
  if (fresh) panel.replaceWith(fresh);
  else panel.remove();
}

/** Starts refreshing the page's Servers panel, if it has one. */
export function watchServersPanel(): void {
  const first = panelNow();
  if (!first) return;
  const every = Number(first.dataset.pollMs) || SERVERS_PANEL_POLL_MS;
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = (delay: number) => {
    clearTimeout(timer);
    if (!stopped && visible() && panelNow()) timer = setTimeout(() => void refresh(), Math.max(0, delay));
  };

  async function refresh(): Promise<void> {
    const panel = panelNow();
    const url = panel?.dataset.refreshUrl;
    if (!panel || !isOwnPath(url) || !visible()) return;
    last = Date.now();
    try {
      const res = await fetch(url, { headers: { Accept: 'text/html' }, cache: 'no-store', redirect: 'error' });
      // Signed out, or the item is gone or closed to this reader: nothing more to ask.
      if (res.status >= 400 && res.status < 500) stopped = true;
      if (res.ok) swap(panel, await res.text());
    } catch {
      // Offline or a redirect: the next round tries again.
    }
    schedule(every);
  }

  document.addEventListener('visibilitychange', () => {
    if (!visible()) {
      clearTimeout(timer);
      return;
    }
    schedule(every - (Date.now() - last));
  });
  schedule(every);
}
