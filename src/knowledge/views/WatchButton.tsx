import { SPACES, type Space } from '../shared';

/** The id of the Watch / Unwatch form: htmx swaps the form, and keeps focus on its button by this id. */
export const WATCH_FORM_ID = 'watch-form';

/**
 * Watch / Unwatch for one item: a plain form (works without JavaScript, the page reloads), swapped in place by htmx.
 * Watchers are told in the bell when the item changes.
 */
export function WatchButton({ space, id, watching }: { space: Space; id: string; watching: boolean }) {
  const action = `${SPACES[space].path}/${id}/watch`;
  return (
    <form id={WATCH_FORM_ID} className="watch-form" method="post" action={action} hx-post={action} hx-swap="outerHTML">
      <input type="hidden" name="watch" value={watching ? 'off' : 'on'} />
      <button
        id="watch-button"
        type="submit"
        className="btn btn--secondary btn--sm"
        title={watching ? 'Stop being told when this changes' : 'Be told in the bell when this changes'}
      >
        {watching ? 'Unwatch' : 'Watch'}
      </button>
    </form>
  );
}
