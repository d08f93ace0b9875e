/**
 * The read page's Servers panel, kept fresh while the reader looks at it: its HTML is asked again every
 * `data-poll-ms` (SERVERS_PANEL_POLL_MS unless the server configured otherwise) by the rule of
 * src/runbooks/shared/poll.ts. Only the list of servers is swapped, and only when it changed; a keyboard user's
 * focus on a server link stays on that link. No panel, no request.
 */
import { SERVERS_PANEL_ID, SERVERS_PANEL_POLL_MS } from '../runbooks/shared';
import { pollWhileVisible } from '../runbooks/shared/poll';

/** The panel's list (src/runbooks/shared/ServerStateList.tsx). */
const LIST = '.servers-panel__list';

const panelNow = () => document.getElementById(SERVERS_PANEL_ID);
/** Only an address of this app (the server renders it; anything else is not followed). */
const isOwnPath = (url: string | undefined): url is string => !!url && url.startsWith('/') && !url.startsWith('//');

/** The link inside `panel` that has the focus, by its address (null when the focus is elsewhere). */
function focusedHref(panel: HTMLElement): string | null {
  const active = document.activeElement;
  return active instanceof HTMLAnchorElement && panel.contains(active) ? active.getAttribute('href') : null;
}

/**
 * The fresh list in place of the old one when it changed, the focus back on the same server's link; an answer
 * without a panel (no server linked any more) removes it. False when there is no panel left to refresh.
 */
function swap(panel: HTMLElement, html: string): boolean {
  const template = document.createElement('template');
  template.innerHTML = html;
  const fresh = template.content.getElementById(SERVERS_PANEL_ID)?.querySelector(LIST);
  const old = panel.querySelector(LIST);
  if (!fresh || !old) {
    panel.remove();
    return false;
  }
  if (fresh.isEqualNode(old)) return true;
  const href = focusedHref(panel);
  old.replaceWith(fresh);
  if (href) fresh.querySelector<HTMLAnchorElement>(`a[href="${CSS.escape(href)}"]`)?.focus();
  return true;
}

/** One refresh of the panel; false when there is nothing more to ask. */
async function refresh(): Promise<boolean> {
  const panel = panelNow();
  const url = panel?.dataset.refreshUrl;
  if (!panel || !isOwnPath(url)) return false;
  try {
    const res = await fetch(url, { headers: { Accept: 'text/html' }, cache: 'no-store', redirect: 'error' });
    // Signed out, or the item is gone or closed to this reader: nothing more to ask.
    if (res.status >= 400 && res.status < 500) return false;
    return res.ok ? swap(panel, await res.text()) : true;
  } catch {
    // Offline or a redirect: the next round tries again.
    return true;
  }
}

/** Starts refreshing the page's Servers panel, if it has one. */
export function watchServersPanel(): void {
  const panel = panelNow();
  if (!panel) return;
  pollWhileVisible(Number(panel.dataset.pollMs) || SERVERS_PANEL_POLL_MS, refresh);
}
