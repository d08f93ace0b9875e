import {
  CHECK_FIELD_NAMES,
  CHECK_FIELDS,
  CHECK_KINDS,
  type CheckField,
  type ServerCheck,
  type ServerCheckKind,
} from '../../../src/servers/shared';

/** One check as the form holds it (text fields; numbers converted when sent). */
export type CheckDraft = { key: number; kind: ServerCheckKind; target: string } & Record<CheckField, string>;

const NUMBER_FIELDS: readonly CheckField[] = ['port', 'expectStatus', 'warnDays'];
const LABELS: Record<CheckField, string> = {
  port: 'Port',
  path: 'Path',
  expectStatus: 'Expected status',
  expectText: 'Body contains',
  warnDays: 'Warn days before expiry',
  expectAddress: 'Expected address',
};
const PLACEHOLDERS: Partial<Record<CheckField, string>> = {
  path: '/healthz',
  expectStatus: 'any 2xx or 3xx',
  warnDays: '21',
};

let nextKey = 1;
const emptyFields = () => Object.fromEntries(CHECK_FIELD_NAMES.map((f) => [f, ''])) as Record<CheckField, string>;

/** The server's explicit checks as drafts (the implicit one, id null, is what an empty list means). */
export function draftsOf(checks: ServerCheck[]): CheckDraft[] {
  return checks
    .filter((c) => c.id !== null)
    .map((c) => {
      const fields = emptyFields();
      for (const f of CHECK_FIELD_NAMES) fields[f] = c[f] === null ? '' : String(c[f]);
      return { key: nextKey++, kind: c.kind, target: c.target, ...fields };
    });
}

/** The PUT /api/servers/{id}/checks body: only the fields each kind uses, numbers as numbers (the server judges). */
export function checksBody(drafts: CheckDraft[]): Record<string, unknown>[] {
  return drafts.map((d) => {
    const check: Record<string, unknown> = { kind: d.kind, target: d.target.trim() };
    for (const f of CHECK_FIELDS[d.kind] as readonly CheckField[]) {
      const value = d[f].trim();
      if (!value) continue;
      check[f] = NUMBER_FIELDS.includes(f) && Number.isFinite(Number(value)) ? Number(value) : value;
    }
    return check;
  });
}

/** A new kind keeps a port typed by hand; the monitor port only stays for tcp (http on port 22 is not meant). */
function kindChange(d: CheckDraft, kind: ServerCheckKind, defaultPort: string): Partial<CheckDraft> {
  if (kind === 'tcp') return { kind, port: d.port || defaultPort };
  return { kind, port: d.port === defaultPort ? '' : d.port };
}

interface Props {
  uid: string;
  drafts: CheckDraft[];
  onChange(drafts: CheckDraft[]): void;
  /** The target a new check starts with (the server's IP address or hostname). */
  defaultTarget: string;
  /** The port a new check starts with (the monitor port). */
  defaultPort: string;
}

/** The server form's Checks section: each check's kind and the fields that kind uses; add and remove. */
export function ChecksEditor({ uid, drafts, onChange, defaultTarget, defaultPort }: Props) {
  const update = (key: number, change: Partial<CheckDraft>) =>
    onChange(drafts.map((d) => (d.key === key ? { ...d, ...change } : d)));
  const add = () =>
    onChange([...drafts, { key: nextKey++, kind: 'tcp', target: defaultTarget, ...emptyFields(), port: defaultPort }]);
  const id = (i: number, f: string) => `sd-${uid}-check-${i}-${f}`;

  return (
    <section className="field field--full checks-editor" aria-labelledby={`sd-${uid}-checks`}>
      <h3 className="field__label" id={`sd-${uid}-checks`}>
        Checks
      </h3>
      <p className="muted small">
        {drafts.length
          ? 'The server is checked by these (its status is the worst of them).'
          : 'No checks of its own: the server is checked by TCP on its monitor port. Checks you add replace that one.'}
      </p>
      {drafts.map((d, i) => (
        <fieldset key={d.key} className="form-grid checks-editor__check">
          <legend>{`Check ${i + 1}`}</legend>
          <div className="field">
            <label className="field__label" htmlFor={id(i, 'kind')}>
              Kind
            </label>
            <select
              id={id(i, 'kind')}
              className="select"
              value={d.kind}
              onChange={(e) => update(d.key, kindChange(d, e.target.value as ServerCheckKind, defaultPort))}
            >
              {CHECK_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={id(i, 'target')}>
              Target (host name or IP)
            </label>
            <input
              id={id(i, 'target')}
              className="input"
              value={d.target}
              onChange={(e) => update(d.key, { target: e.target.value })}
            />
          </div>
          {(CHECK_FIELDS[d.kind] as readonly CheckField[]).map((f) => (
            <div className="field" key={f}>
              <label className="field__label" htmlFor={id(i, f)}>
                {LABELS[f]}
              </label>
              <input
                id={id(i, f)}
                className="input"
                type={NUMBER_FIELDS.includes(f) ? 'number' : 'text'}
                value={d[f]}
                placeholder={PLACEHOLDERS[f]}
                onChange={(e) => update(d.key, { [f]: e.target.value })}
              />
            </div>
          ))}
          <div className="field">
            <button
              type="button"
              className="btn btn--ghost"
              aria-label={`Remove check ${i + 1}`}
              onClick={() => onChange(drafts.filter((x) => x.key !== d.key))}
            >
              Remove
            </button>
          </div>
        </fieldset>
      ))}
      <div>
        <button type="button" className="btn" onClick={add}>
          Add check
        </button>
      </div>
    </section>
  );
}
