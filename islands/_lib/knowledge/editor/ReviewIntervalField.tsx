import { useId } from 'react';
import { REVIEW_INTERVAL_MAX } from '../../../../src/knowledge/shared';

/** "Review every N days" (issue 22): empty means no review date (a new item then takes its type's default). */
export function ReviewIntervalField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-review`}>
        Review every N days
      </label>
      <input
        id={`${id}-review`}
        className="input"
        type="number"
        inputMode="numeric"
        min={1}
        max={REVIEW_INTERVAL_MAX}
        step={1}
        placeholder="No review date"
        value={value}
        aria-describedby={`${id}-review-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-review-hint`} className="muted small">
        The owner is reminded when the item is due for review. Empty: no review date (a new item gets its type's
        default).
      </p>
    </div>
  );
}
