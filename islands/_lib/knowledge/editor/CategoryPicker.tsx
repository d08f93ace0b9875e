import { useId, useState } from 'react';
import { toast } from '../../toast';
import { CATEGORIES } from '../../../../src/knowledge/shared';

const ADD_NEW = '__add_new__';

/** Category select with the spec's categories and an add-new-category option (Add / Cancel, "Category Added"). */
export function CategoryPicker({ value, onChange }: { value: string; onChange: (category: string) => void }) {
  const id = useId();
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState('');
  const options: string[] = [...CATEGORIES];
  if (value && !options.includes(value)) options.unshift(value);

  function add() {
    const category = draft.trim().slice(0, 100);
    if (!category) return;
    onChange(category);
    setAdding(false);
    setDraft('');
    toast('Category Added', `${category} has been set as the category.`);
  }

  return (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-category`}>
        Category
      </label>
      <select
        id={`${id}-category`}
        className="select"
        value={value}
        onChange={(e) => (e.target.value === ADD_NEW ? setAdding(true) : onChange(e.target.value))}
      >
        <option value="">No category</option>
        {options.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
        <option value={ADD_NEW}>+ Add new category…</option>
      </select>
      {adding && (
        <div className="row editor-inline">
          <input
            className="input"
            aria-label="New category"
            placeholder="New category"
            maxLength={100}
            // biome-ignore lint/a11y/noAutofocus: shown when the user picks "Add new category": typing goes there next
            autoFocus
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <button type="button" className="btn btn--primary btn--sm" onClick={add} disabled={!draft.trim()}>
            Add
          </button>
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            onClick={() => {
              setAdding(false);
              setDraft('');
            }}
          >
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}
