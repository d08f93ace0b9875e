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
  type ServerCheck,
} from '../../../src/servers/shared';
import { api, ApiError } from '../api';
import { toast } from '../toast';
import { type CheckDraft, ChecksEditor, checksBody, draftsOf } from './ChecksEditor';

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
  'tags',
  'keyContacts',
  'description',
  'notes',
  'managedBy',
  'status',
  'monitorPort',
] as const;

function initialForm(s: Server | null): Form {
  const form: Form = {};
  for (const f of TEXT_FIELDS) form[f] = !s ? '' : f === 'tags' ? s.tags.join(', ') : String(s[f] ?? '');
  if (!s) Object.assign(form, { environment: 'development', status: 'unknown', monitorPort: '22' });
  return form;
}

/** The server's { message } for a refusal (4xx), else the general text. */
const messageOf = (err: unknown, failed: string) =>
  err instanceof ApiError && err.status < 500 ? err.serverMessage : failed;

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
  // The server as stored: a new one exists once added, so a refused check list is then saved with PUT.
  const [stored, setStored] = useState<Server | null>(server);
  const [checks, setChecks] = useState<CheckDraft[]>([]);
  // The list as the server has it (JSON of the body); null while loading or when it could not be loaded.
  const [savedChecks, setSavedChecks] = useState<string | null>(server ? null : '[]');
  const uid = server?.id ?? 'new';

  // biome-ignore lint/correctness/useExhaustiveDependencies: on open only
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    if (!server) return;
    api<ServerCheck[]>('GET', `/api/servers/${server.id}/checks`).then(
      (list) => {
        const drafts = draftsOf(list);
        setChecks(drafts);
        setSavedChecks(JSON.stringify(checksBody(drafts)));
      },
      () => setProblem('The checks could not be loaded; they are left as they are.'),
    );
  }, []);

  /** Saves the check list when it changed (never before it loaded: that would replace it unseen). */
  async function saveChecks(id: string): Promise<void> {
    const body = checksBody(checks);
    if (savedChecks === null || JSON.stringify(body) === savedChecks) return;
    const list = await api<ServerCheck[]>('PUT', `/api/servers/${id}/checks`, body);
    const drafts = draftsOf(list);
    setChecks(drafts);
    setSavedChecks(JSON.stringify(checksBody(drafts)));
  }

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
      const saved = await saveServer(parsed.data);
      if (!saved) return;
      try {
        await saveChecks(saved.id);
      } catch (err) {
        setProblem(messageOf(err, 'The checks could not be saved. Please try again.'));
        toast('Error', 'The server was saved, its checks were not.', 'error');
        return;
      }
      toast('Success', server ? 'Server updated successfully.' : 'Server added successfully.');
      onSaved(saved, !server);
    } finally {
      setSaving(false);
    }
  }

  /** POST (new) or PUT (stored) the form's fields; null when refused (the problem is shown). */
  async function saveServer(fields: unknown): Promise<Server | null> {
    try {
      const saved = await api<Server>(
        stored ? 'PUT' : 'POST',
        stored ? `/api/servers/${stored.id}` : '/api/servers',
        fields,
      );
      setStored(saved);
      return saved;
    } catch (err) {
      const failed = stored ? 'Failed to update server. Please try again.' : 'Failed to add server. Please try again.';
      setProblem(messageOf(err, failed));
      toast('Error', failed, 'error');
      return null;
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
            {input('tags', 'Tags (comma-separated)')}
            {input('managedBy', 'Managed By')}
            {input('keyContacts', 'Key Contacts', { full: true })}
            {area('description', 'Description')}
            {area('notes', 'Notes')}
            {savedChecks !== null && (
              <ChecksEditor
                uid={uid}
                drafts={checks}
                onChange={setChecks}
                defaultTarget={form.ipAddress || form.hostname}
                defaultPort={form.monitorPort}
              />
            )}
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
