import { useId, useState } from 'react';

/** Adds a trimmed tag unless empty or already present (spec §5). */
export function addTag(tags: string[], raw: string): string[] {
  const tag = raw.trim().slice(0, 100);
  return !tag || tags.includes(tag) ? tags : [...tags, tag];
}

/** Tags: Enter or Add adds (trimmed, no duplicates); removable badges. */
export function TagsInput({ tags, onChange }: { tags: string[]; onChange: (tags: string[]) => void }) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const commit = () => {
    onChange(addTag(tags, draft));
    setDraft('');
  };
  return (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-tag`}>
        Tags
      </label>
      <div className="input-group">
        <input
          id={`${id}-tag`}
          className="input"
          placeholder="Add a tag"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
        <button type="button" className="btn" onClick={commit}>
          Add
        </button>
      </div>
      {tags.length > 0 && (
        <ul className="tag-list" aria-label="Tags">
          {tags.map((t) => (
            <li key={t} className="badge badge--neutral tag">
              {t}
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove tag ${t}`}
                onClick={() => onChange(tags.filter((x) => x !== t))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
