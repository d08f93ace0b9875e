import { useId } from 'react';
import { CategoryPicker } from './CategoryPicker';
import {
  DOMAINS,
  TECHNOLOGIES,
  TEMPLATE_TYPE_LABELS,
  type Fields,
  type TemplateType,
} from '../../../../src/knowledge/shared';
import type { ServerSummary } from '../../../../src/runbooks/shared';
import { ReviewIntervalField } from './ReviewIntervalField';
import { ServerPicker } from './ServerPicker';
import { TagsInput } from './TagsInput';

interface Props {
  fields: Fields;
  /** The template types this space offers. */
  types: readonly TemplateType[];
  set: (patch: Partial<Fields>) => void;
  onTemplateType: (type: TemplateType | null) => void;
  /** The linked servers (issue 23). */
  servers: ServerSummary[];
  onServers: (servers: ServerSummary[]) => void;
}

/**
 * The settings side panel: category, technology, domain, tags, linked servers, Published/Template switches, Template
 * Type, Attached Images.
 */
export function SettingsPanel({ fields, types, set, onTemplateType, servers, onServers }: Props) {
  const id = useId();
  return (
    <aside className="card editor-settings" aria-label="Settings">
      <div className="card__body stack">
        <h2 className="card__title">Settings</h2>
        <CategoryPicker value={fields.category} onChange={(category) => set({ category })} />
        <div className="field">
          <label className="field__label" htmlFor={`${id}-tech`}>
            Technology
          </label>
          <input
            id={`${id}-tech`}
            className="input"
            list={`${id}-techs`}
            maxLength={50}
            value={fields.technology}
            onChange={(e) => set({ technology: e.target.value })}
          />
          <datalist id={`${id}-techs`}>
            {TECHNOLOGIES.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-domain`}>
            Domain
          </label>
          <select
            id={`${id}-domain`}
            className="select"
            value={fields.domain}
            onChange={(e) => set({ domain: e.target.value })}
          >
            <option value="">None</option>
            {DOMAINS.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </div>
        <TagsInput tags={fields.tags} onChange={(tags) => set({ tags })} />
        <ServerPicker servers={servers} onChange={onServers} />
        <label className="checkbox editor-switch">
          <input
            type="checkbox"
            role="switch"
            className="switch"
            checked={fields.isPublished}
            aria-checked={fields.isPublished}
            onChange={(e) => set({ isPublished: e.target.checked })}
          />
          Published
        </label>
        <label className="checkbox editor-switch">
          <input
            type="checkbox"
            role="switch"
            className="switch"
            checked={fields.isTemplate}
            aria-checked={fields.isTemplate}
            onChange={(e) => set({ isTemplate: e.target.checked })}
          />
          Template
        </label>
        {fields.isTemplate && (
          <div className="field">
            <label className="field__label" htmlFor={`${id}-ttype`}>
              Template Type
            </label>
            <select
              id={`${id}-ttype`}
              className="select"
              value={fields.templateType ?? ''}
              onChange={(e) => onTemplateType((e.target.value || null) as TemplateType | null)}
            >
              <option value="">Select a template type</option>
              {types.map((t) => (
                <option key={t} value={t}>
                  {TEMPLATE_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </div>
        )}
        <ReviewIntervalField
          value={fields.reviewInterval ?? ''}
          onChange={(reviewInterval) => set({ reviewInterval })}
        />
        <div className="field">
          <span className="field__label">Attached Images</span>
          {fields.attachedImages.length ? (
            <ul className="editor-images" aria-label="Attached Images">
              {fields.attachedImages.map((p) => (
                <li key={p}>
                  <code>{p}</code>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">No images attached.</p>
          )}
        </div>
      </div>
    </aside>
  );
}
