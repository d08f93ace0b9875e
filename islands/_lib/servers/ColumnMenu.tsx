import type { VisibilityState } from '@tanstack/react-table';
import { useCallback, useRef, useState } from 'react';
import { Icon } from '../icons';
import { TABLE_COLUMNS } from './prefs';
import { useDismiss } from './useDismiss';

const TOGGLEABLE = TABLE_COLUMNS.filter((c) => c.id !== 'server' && c.id !== 'actions');

/** Customize View: show or hide columns, or reset them to the defaults; Escape or a click outside closes it. */
export function ColumnMenu({
  visibility,
  onToggle,
  onReset,
}: {
  visibility: VisibilityState;
  onToggle(id: string, on: boolean): void;
  onReset(): void;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);
  return (
    <details ref={ref} className="menu server-columns" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <Icon name="columns" /> Customize View
      </summary>
      {/* biome-ignore lint/a11y/useSemanticElements: a <fieldset> brings its own border, padding and min-width */}
      <div className="menu__list" role="group" aria-label="Visible columns">
        {TOGGLEABLE.map((c) => (
          <label key={c.id} className="menu__item checkbox">
            <input
              type="checkbox"
              checked={visibility[c.id] !== false}
              onChange={(e) => onToggle(c.id, e.target.checked)}
            />
            {c.label}
          </label>
        ))}
        <button type="button" className="menu__item" onClick={onReset}>
          Reset to default
        </button>
      </div>
    </details>
  );
}
