import { useId } from 'react';

interface Props {
  label: string;
  /** Singular noun for buttons: "Add tip", "Remove tip 2". */
  noun: string;
  items: string[];
  onChange: (items: string[]) => void;
  /** What removing item i leaves (the spec's minimum-one rules live in forms.ts). */
  remove: (items: string[], i: number) => string[];
  /** Whether the remove button of item i shows. */
  canRemove?: (items: string[]) => boolean;
  multiline?: boolean;
}

/** An editable list of text items with add and remove buttons. */
export function ListField({ label, noun, items, onChange, remove, canRemove = () => true, multiline }: Props) {
  const id = useId();
  const update = (i: number, v: string) => onChange(items.map((x, j) => (j === i ? v : x)));
  return (
    <fieldset className="editor-list">
      <legend className="field__label">{label}</legend>
      <ol className="stack editor-list__items">
        {items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items are plain strings with no id, edited by position
          <li key={i} className="row editor-list__item">
            {multiline ? (
              <textarea
                id={`${id}-${i}`}
                className="textarea"
                rows={2}
                aria-label={`${label} ${i + 1}`}
                value={item}
                onChange={(e) => update(i, e.target.value)}
              />
            ) : (
              <input
                id={`${id}-${i}`}
                className="input"
                aria-label={`${label} ${i + 1}`}
                value={item}
                onChange={(e) => update(i, e.target.value)}
              />
            )}
            {canRemove(items) && (
              <button
                type="button"
                className="btn btn--ghost btn--sm"
                aria-label={`Remove ${noun} ${i + 1}`}
                onClick={() => onChange(remove(items, i))}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn--secondary btn--sm" onClick={() => onChange([...items, ''])}>
        Add {noun}
      </button>
    </fieldset>
  );
}

/** A labelled text input or textarea bound to one string. */
export function TextField({
  label,
  value,
  onChange,
  multiline,
  action,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  multiline?: boolean;
  action?: React.ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <div className="row">
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        {action && <span className="spacer" />}
        {action}
      </div>
      {multiline ? (
        <textarea id={id} className="textarea" rows={3} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </div>
  );
}
