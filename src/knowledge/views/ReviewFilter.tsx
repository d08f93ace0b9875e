import type { ListState } from './urls';

/** The list toolbar's review filter (issue 22): every item, those that need review, or those a server change flagged. */
export function ReviewFilter({ state }: { state: Pick<ListState, 'review'> }) {
  return (
    <>
      <label className="visually-hidden" htmlFor="kb-review">
        Review
      </label>
      <select id="kb-review" className="select kb-filter" name="review" defaultValue={state.review ?? ''}>
        <option value="">Any review date</option>
        <option value="overdue">Review overdue</option>
        <option value="flagged">Server changed</option>
      </select>
    </>
  );
}
