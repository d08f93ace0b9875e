import type { VisibilityState } from '@tanstack/react-table';
import { SERVER_COLUMNS } from '../../../src/servers/shared';
import { Icon } from '../icons';

const TOGGLEABLE = SERVER_COLUMNS.filter((c) => c.id !== 'server' && c.id !== 'actions');

/** Customize View: show or hide columns, or reset them to the defaults. */
export function ColumnMenu({
  visibility,
  onToggle,
  onReset,
}: {
  visibility: VisibilityState;
  onToggle(id: string, on: boolean): void;
  onReset(): void;
}) {
  return (
    <details className="menu server-columns">
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
