import { useId } from 'react';
import { CHANGE_NOTE_MAX } from '../../../../src/knowledge/shared';

/** The optional note on what a save changes; Version History shows it (without one, it says what changed). */
export function ChangeNoteField({ value, onChange }: { value: string; onChange: (note: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Change note (optional)
      </label>
      <input
        id={id}
        className="input"
        maxLength={CHANGE_NOTE_MAX}
        placeholder="What did you change? Shown in Version History."
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
