/**
 * One answer to every failed htmx request: htmx does not swap a 4xx/5xx answer, so without this the user
 * sees nothing. Shows an "Error" toast with the server's short message, else the words of the element that
 * sent the request (data-error-toast), else a generic text. Answers that carry their own toast are left alone.
 */
import { showToast } from './toast';

export const GENERIC_ERROR = 'Something went wrong. Please try again.';
export const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

interface HtmxErrorDetail {
  xhr: XMLHttpRequest;
}

/** A message fit for a toast: one short line of plain text. */
const plain = (text: unknown): string | null => {
  const s = typeof text === 'string' ? text.trim() : '';
  return s && s.length <= 200 && !/[<>\n]/.test(s) ? s : null;
};

/** The server's message: `message` of a JSON body, or the text of our HTML error page. */
export function serverMessage(xhr: XMLHttpRequest): string | null {
  const type = xhr.getResponseHeader('Content-Type') ?? '';
  try {
    if (type.includes('json')) return plain((JSON.parse(xhr.responseText) as { message?: unknown }).message);
    if (type.includes('html'))
      return plain(
        new DOMParser().parseFromString(xhr.responseText, 'text/html').querySelector('.error-page p')?.textContent,
      );
    if (type.includes('text/plain')) return plain(xhr.responseText);
  } catch {
    // An unreadable body has no message.
  }
  return null;
}

/** data-error-toast of the element that sent the request or of its nearest ancestor. */
const ownText = (elt: EventTarget | null): string | null =>
  plain(elt instanceof Element ? elt.closest<HTMLElement>('[data-error-toast]')?.dataset.errorToast : null);

/**
 * A 4xx explains itself; a 5xx message is our generic one, so the action's own words say more. The offline pack's
 * worker (X-Offline) answers a write made without a connection: its words say why.
 */
export function errorText(xhr: XMLHttpRequest, elt: EventTarget | null): string {
  const server = serverMessage(xhr);
  const own = ownText(elt);
  const serverFirst = xhr.status < 500 || xhr.getResponseHeader('X-Offline') === '1';
  return (serverFirst ? (server ?? own) : (own ?? server)) ?? GENERIC_ERROR;
}

/** Listens for htmx's responseError (an answer it would not swap) and sendError (no answer at all). */
export function initHtmxErrors(): void {
  document.addEventListener('htmx:responseError', (e) => {
    const { xhr } = (e as CustomEvent<HtmxErrorDetail>).detail;
    if (xhr.getResponseHeader('HX-Trigger')?.includes('showToast')) return;
    showToast({ title: 'Error', text: errorText(xhr, e.target), variant: 'error' });
  });
  document.addEventListener('htmx:sendError', () => showToast({ title: 'Error', text: UNREACHABLE, variant: 'error' }));
}
