import { SPACES, type Space } from '../../knowledge/shared';

/** The id of the Keep offline form: htmx swaps the form, and keeps focus on its button by this id. */
export const KEEP_FORM_ID = 'offline-keep-form';

/** Why an item is in the reader's offline pack: their choice, their team's server, or not at all. */
export type OfflineState = 'kept' | 'team' | null;

/**
 * "Keep offline" on an item's read page: a toggle button in a plain form (works without JavaScript, the page
 * reloads), swapped in place by htmx. The service worker saves the page once it is kept; /offline lists the pack.
 */
export function KeepOfflineButton({ space, id, state }: { space: Space; id: string; state: OfflineState }) {
  const action = `${SPACES[space].path}/${id}/offline`;
  const kept = state === 'kept';
  return (
    <form
      id={KEEP_FORM_ID}
      className="offline-keep"
      method="post"
      action={action}
      hx-post={action}
      hx-swap="outerHTML"
      data-error-toast="The offline setting could not be saved."
    >
      <input type="hidden" name="keep" value={kept ? 'off' : 'on'} />
      <button
        id="offline-keep-button"
        type="submit"
        className="btn btn--secondary btn--sm"
        aria-pressed={kept}
        title={kept ? 'Stop keeping this page in this browser' : 'Save this page in this browser to read it offline'}
      >
        Keep offline
      </button>
      {state && (
        <span className="small muted">
          {kept ? 'Kept offline' : 'Kept offline: linked to a server your team owns'} ·{' '}
          <a href="/offline">Offline pack</a>
        </span>
      )}
    </form>
  );
}
