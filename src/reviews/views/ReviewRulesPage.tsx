import type { ReviewType } from '../../knowledge/shared/review-types';
import { reviewTypes } from '../../knowledge/shared/review-types';
import { Banner, Card } from '../../ui/components';
import type { ReviewPolicy } from '../policy';
import { REVIEW_TYPE_PLURALS } from '../shared';

/** /admin/review: per item type, the approvals that publish an item and the default review interval (a plain form). */
export function ReviewRulesPage({ policy, saved, error }: { policy: ReviewPolicy; saved?: boolean; error?: string }) {
  return (
    <Card title="Review rules" subtitle="Approvals an item needs before it is published, and how often it is reviewed">
      {saved && <Banner variant="success">Review rules saved.</Banner>}
      {error && <Banner variant="error">{error}</Banner>}
      <form method="post" action="/admin/review" className="stack">
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Item type</th>
                <th scope="col">Approvals to publish (0–5)</th>
                <th scope="col">Default review interval (days)</th>
              </tr>
            </thead>
            <tbody>
              {reviewTypes.map((type: ReviewType) => (
                <tr key={type}>
                  <th scope="row">{REVIEW_TYPE_PLURALS[type]}</th>
                  <td>
                    <input
                      className="input"
                      type="number"
                      min={0}
                      max={5}
                      name={`approvals.${type}`}
                      aria-label={`Approvals for ${REVIEW_TYPE_PLURALS[type]}`}
                      defaultValue={policy.approvals[type] ?? 0}
                    />
                  </td>
                  <td>
                    <input
                      className="input"
                      type="number"
                      min={1}
                      max={3650}
                      name={`intervals.${type}`}
                      aria-label={`Review interval for ${REVIEW_TYPE_PLURALS[type]}`}
                      placeholder="None"
                      defaultValue={policy.intervals[type] ?? ''}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div>
          <button type="submit" className="btn btn--primary">
            Save review rules
          </button>
        </div>
      </form>
    </Card>
  );
}
