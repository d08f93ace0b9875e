import type { AuditFilterValues } from '../../audit/shared';

export interface ActorOption {
  id: string;
  name: string;
}

function TextFilter({
  name,
  label,
  values,
  maxLength,
}: {
  name: keyof AuditFilterValues;
  label: string;
  values: AuditFilterValues;
  maxLength: number;
}) {
  const id = `audit-${name}`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" name={name} defaultValue={values[name] ?? ''} maxLength={maxLength} />
    </div>
  );
}

function DateFilter({ name, label, values }: { name: 'from' | 'to'; label: string; values: AuditFilterValues }) {
  const id = `audit-${name}`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" type="date" name={name} defaultValue={values[name] ?? ''} />
    </div>
  );
}

/** The audit trail's filters as a plain GET form: every filtered view is a URL, no JavaScript needed. */
export function AuditFilters({
  values,
  actors,
  timeZone,
}: {
  values: AuditFilterValues;
  actors: ActorOption[];
  timeZone: string;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the form is the search landmark; <search> adds a box
    <form className="audit-filters" role="search" method="get" action="/admin/audit" aria-label="Filter events">
      <div className="field">
        <label className="field__label" htmlFor="audit-actor">
          Actor
        </label>
        <select id="audit-actor" className="select" name="actor" defaultValue={values.actor ?? ''}>
          <option value="">Anyone</option>
          {actors.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      <TextFilter name="action" label="Action" values={values} maxLength={100} />
      <TextFilter name="entityType" label="Entity type" values={values} maxLength={50} />
      <TextFilter name="entityId" label="Entity id" values={values} maxLength={100} />
      <DateFilter name="from" label={`From (${timeZone})`} values={values} />
      <DateFilter name="to" label={`To (${timeZone})`} values={values} />
      <div className="row audit-filters__actions">
        <button type="submit" className="btn btn--primary btn--sm">
          Filter
        </button>
        <a className="btn btn--sm" href="/admin/audit">
          Clear
        </a>
      </div>
    </form>
  );
}
