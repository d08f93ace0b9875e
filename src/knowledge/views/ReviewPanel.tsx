import type { ReviewPanelData } from '../../reviews/schemas';
import { Badge } from '../../ui/components';

/**
 * The review workflow on an item's read page and editor (issue 22): the state badge, the note that a newer draft
 * waits (for those who may edit it), the reviewers asked and their decisions, "Send for review" for the author and
 * Approve / Request changes for a requested reviewer. Plain forms posted by htmx (a refusal is a toast) or by the browser; each success opens the item's page again.
 */

const STATE = {
  draft: { label: 'Draft', colour: 'neutral' },
  in_review: { label: 'In review', colour: 'yellow' },
  published: { label: 'Published', colour: 'green' },
} as const;

const DECISION = { approve: 'Approved', changes: 'Changes requested' } as const;

/** The state of the revision the page shows: the published one reads as Published. */
function StateBadge({ review }: { review: ReviewPanelData }) {
  const state = review.showing === 'published' ? STATE.published : STATE[review.state];
  return <Badge colour={state.colour}>{state.label}</Badge>;
}

function RevisionNote({ review, editable }: { review: ReviewPanelData; editable: boolean }) {
  if (review.showing === 'published' && (editable || review.mayDecide)) {
    const waits = review.state === 'in_review' ? 'is awaiting review' : 'is being written';
    return (
      <p className="small">
        {`A newer draft (v${review.version}) ${waits} — `}
        <a href={`${review.path}?revision=draft`}>open it</a>
      </p>
    );
  }
  if (review.showing === 'draft') {
    return (
      <p className="small">
        {`You are reading the draft (v${review.version}); readers see version ${review.publishedVersion} — `}
        <a href={review.path}>open it</a>
      </p>
    );
  }
  return null;
}

function Round({ round }: { round: ReviewPanelData['round'] }) {
  if (!round.length) return null;
  return (
    <ul className="small review-round" aria-label="Reviewers">
      {round.map((r) => (
        <li key={r.reviewerName}>
          {`${r.reviewerName}: ${r.decision ? DECISION[r.decision] : 'Waiting'}`}
          {r.comment && <q className="muted">{` ${r.comment}`}</q>}
        </li>
      ))}
    </ul>
  );
}

function SendForm({ review }: { review: ReviewPanelData }) {
  const candidates = review.candidates ?? [];
  if (!candidates.length) return <p className="small muted">No other editor or admin may review this item.</p>;
  const again = review.state === 'in_review';
  return (
    <form
      method="post"
      action={`${review.path}/review-requests`}
      hx-post={`${review.path}/review-requests`}
      className="stack review-send"
    >
      <fieldset className="field">
        <legend className="field__label">{again ? 'Ask more reviewers' : 'Send for review'}</legend>
        {candidates.map((p) => (
          <label key={p.id} className="checkbox">
            <input type="checkbox" name="reviewerIds" value={p.id} /> {p.name}
          </label>
        ))}
      </fieldset>
      <div>
        <button type="submit" className="btn btn--secondary btn--sm">
          Send for review
        </button>
      </div>
    </form>
  );
}

function DecideForm({ review }: { review: ReviewPanelData }) {
  const id = `review-comment-${review.version}`;
  return (
    <form
      method="post"
      action={`${review.path}/reviews`}
      hx-post={`${review.path}/reviews`}
      className="stack review-decide"
    >
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {`Your review of v${review.version}`}
        </label>
        <textarea id={id} name="comment" className="textarea" rows={3} placeholder="Comment (required for changes)" />
      </div>
      <div className="row">
        <button type="submit" name="decision" value="approve" className="btn btn--primary btn--sm">
          Approve
        </button>
        <button type="submit" name="decision" value="changes" className="btn btn--secondary btn--sm">
          Request changes
        </button>
      </div>
    </form>
  );
}

/** The panel; `editable` when the reader may edit the item. */
export function ReviewPanel({ review, editable }: { review: ReviewPanelData; editable: boolean }) {
  const needs = review.needed > 0 ? `Needs ${review.needed} approval${review.needed === 1 ? '' : 's'} to publish.` : '';
  return (
    <section className="review-panel stack" id="review-panel" aria-label="Review">
      <p className="row small">
        <StateBadge review={review} /> {editable && needs && <span className="muted">{needs}</span>}
      </p>
      <RevisionNote review={review} editable={editable} />
      {(editable || review.mayDecide) && <Round round={review.round} />}
      {review.mayDecide && review.showing !== 'published' && <DecideForm review={review} />}
      {review.candidates && review.showing !== 'published' && <SendForm review={review} />}
    </section>
  );
}
