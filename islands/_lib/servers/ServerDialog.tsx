import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  DOMAINS,
  ENVIRONMENTS,
  HARDWARE_MODELS,
  NETWORK_ZONES,
  OPERATING_SYSTEMS,
  SERVER_STATUSES,
  SERVER_TYPES,
  checkServerForm,
  type Server,
} from '../../../src/servers/shared';
import { api, ApiError } from '../api';
import { toast } from '../toast';

type Form = Record<string, string>;
const TEXT_FIELDS = [
  'name',
  'hostname',
  'ipAddress',
  'domain',
  'network',
  'environment',
  'operatingSystem',
  'serverType',
  'hardwareModel',
  'serverLocation',
  'primaryFunction',
  'secondaryFunction',
  'tertiaryFunction',
  'teamOwner',
  'keyContacts',
  'description',
  'notes',
  'managedBy',
  'status',
  'monitorPort',
] as const;

function initialForm(s: Server | null): Form {
  const form: Form = {};
  for (const f of TEXT_FIELDS) form[f] = s ? String(s[f] ?? '') : '';
  if (!s) Object.assign(form, { environment: 'development', status: 'unknown', monitorPort: '22' });
  return form;
}

interface Props {
  /** The server being edited, or null to add one. */
  server: Server | null;
  onClose(): void;
  onSaved(s: Server, created: boolean): void;
}

/** Add Server / Edit Server: every field, the spec §5 option lists, checked against the shared schema. */
export function ServerDialog({ server, onClose, onSaved }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const [form, setForm] = useState<Form>(() => initialForm(server));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const uid = server?.id ?? 'new';

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const set = (k: string) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = checkServerForm(form);
    if (!parsed.data) {
      setErrors(parsed.errors);
      setProblem('Validation Error: Please check your input and try again.');
      toast('Validation Error', 'Please check your input and try again.', 'error');
      return;
    }
    setErrors({});
    setProblem(null);
    setSaving(true);
    try {
      const saved = await api<Server>(
        server ? 'PUT' : 'POST',
        server ? `/api/servers/${server.id}` : '/api/servers',
        parsed.data,
      );
      toast('Success', server ? 'Server updated successfully.' : 'Server added successfully.');
      onSaved(saved, !server);
    } catch (err) {
      const failed = server ? 'Failed to update server. Please try again.' : 'Failed to add server. Please try again.';
      setProblem(err instanceof ApiError && err.status < 500 ? err.serverMessage : failed);
      toast('Error', failed, 'error');
    } finally {
      setSaving(false);
    }
  }

  const input = (k: string, label: string, opts: { full?: boolean; type?: string; placeholder?: string } = {}) => (
    <div className={`field${opts.full ? ' field--full' : ''}`}>
      <label className="field__label" htmlFor={`sd-${uid}-${k}`}>
        {label}
      </label>
      <input
        id={`sd-${uid}-${k}`}
        className="input"
        type={opts.type ?? 'text'}
        value={form[k]}
        onChange={set(k)}
        placeholder={opts.placeholder}
        aria-invalid={errors[k] ? true : undefined}
      />
      {errors[k] && <p className="field__error">{errors[k]}</p>}
    </div>
  );
  const select = (k: string, label: string, options: readonly string[], placeholder?: string) => (
    <div className="field">
      <label className="field__label" htmlFor={`sd-${uid}-${k}`}>
        {label}
      </label>
      <select
        id={`sd-${uid}-${k}`}
        className="select"
        value={form[k]}
        onChange={set(k)}
        aria-invalid={errors[k] ? true : undefined}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {form[k] && !options.includes(form[k]) && <option value={form[k]}>{form[k]}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      {errors[k] && <p className="field__error">{errors[k]}</p>}
    </div>
  );
  const area = (k: string, label: string) => (
    <div className="field field--full">
      <label className="field__label" htmlFor={`sd-${uid}-${k}`}>
        {label}
      </label>
      <textarea id={`sd-${uid}-${k}`} className="textarea" rows={3} value={form[k]} onChange={set(k)} />
      {errors[k] && <p className="field__error">{errors[k]}</p>}
    </div>
  );

  return (
    <dialog ref={ref} className="dialog dialog--wide" aria-labelledby={`sd-${uid}-title`} onClose={onClose}>
      <form noValidate onSubmit={submit}>
        <header className="dialog__header">
          <h2 className="dialog__title" id={`sd-${uid}-title`}>
            {server ? 'Edit Server' : 'Add Server'}
          </h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={() => ref.current?.close()}>
            ×
          </button>
        </header>
        <div className="dialog__body">
          {problem && (
            <div className="banner banner--error" role="alert">
              {problem}
            </div>
          )}
          <div className="form-grid">
            {input('name', 'Server Name *', { placeholder: 'web-01' })}
            {input('hostname', 'Hostname (FQDN)', { placeholder: 'web-01.corp.example.com' })}
            {input('ipAddress', 'IP Address', { placeholder: '127.0.0.1' })}
            {input('monitorPort', 'Monitor Port', { type: 'number' })}
            {select('domain', 'Domain', DOMAINS, 'Select domain')}
            {select('network', 'Network Zone', NETWORK_ZONES, 'Select network zone')}
            {select('environment', 'Environment', ENVIRONMENTS)}
            {select('status', 'Status', SERVER_STATUSES)}
            {select('operatingSystem', 'Operating System', OPERATING_SYSTEMS, 'Select operating system')}
            {select('serverType', 'Server Type', SERVER_TYPES, 'Select server type')}
            {select('hardwareModel', 'Hardware Model', HARDWARE_MODELS, 'Select hardware model')}
            {input('serverLocation', 'Location')}
            {input('primaryFunction', 'Primary Function')}
            {input('secondaryFunction', 'Secondary Function')}
            {input('tertiaryFunction', 'Tertiary Function')}
            {input('teamOwner', 'Team Owner')}
            {input('managedBy', 'Managed By')}
            {input('keyContacts', 'Key Contacts', { full: true })}
            {area('description', 'Description')}
            {area('notes', 'Notes')}
          </div>
        </div>
        <footer className="dialog__footer">
          <span className="spacer" />
          <button type="button" className="btn" onClick={() => ref.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={saving}>
            {saving ? 'Saving…' : server ? 'Update Server' : 'Add Server'}
          </button>
        </footer>
      </form>
    </dialog>
  );
}
