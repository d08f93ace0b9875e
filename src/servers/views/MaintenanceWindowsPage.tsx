import { Badge, Banner, Card, EmptyState, Field } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import type { MaintenanceWindow } from '../maintenance-windows';
import { ENVIRONMENTS } from '../shared';

export interface WindowFormValues {
  name: string;
  environment: string;
  startsAt: string;
  endsAt: string;
  weekly: boolean;
  serverIds: string[];
}

interface Props {
  windows: MaintenanceWindow[];
  servers: { id: string; name: string }[];
  timeZone: string;
  errors?: Record<string, string>;
  values?: WindowFormValues;
}

function covers(w: MaintenanceWindow, names: Map<string, string>): string {
  const parts = [];
  if (w.serverIds.length) parts.push(w.serverIds.map((id) => names.get(id) ?? 'a deleted server').join(', '));
  if (w.environment) parts.push(`${w.serverIds.length ? 'in ' : 'every server in '}${w.environment}`);
  return parts.join(' ') || 'every server';
}

function WindowRow({ w, names, timeZone }: { w: MaintenanceWindow; names: Map<string, string>; timeZone: string }) {
  return (
    <tr>
      <th scope="row" data-label="Name">
        {w.name} {w.openNow && <Badge colour="purple">Open now</Badge>}
      </th>
      <td data-label="Covers">{covers(w, names)}</td>
      <td data-label="When">
        {`${formatDateTime(w.startsAt, timeZone)} – ${formatDateTime(w.endsAt, timeZone)}${w.weekly ? ', every week' : ''}`}
      </td>
      <td data-label="Actions">
        <form method="post" action={`/admin/maintenance-windows/${w.id}/delete`}>
          <button type="submit" className="btn btn--sm btn--danger" aria-label={`Delete window ${w.name}`}>
            Delete
          </button>
        </form>
      </td>
    </tr>
  );
}

function NewWindowForm({ servers, timeZone, errors = {}, values }: Omit<Props, 'windows'>) {
  const chosen = new Set(values?.serverIds ?? []);
  return (
    <Card title="New maintenance window" subtitle={`Times in ${timeZone}`}>
      {errors.form && <Banner variant="error">{errors.form}</Banner>}
      <form method="post" action="/admin/maintenance-windows" className="stack">
        <Field label="Name" htmlFor="mw-name" error={errors.name}>
          <input id="mw-name" className="input" name="name" required maxLength={100} defaultValue={values?.name} />
        </Field>
        <Field
          label="Servers"
          htmlFor="mw-servers"
          hint="None chosen: by environment, or every server"
          error={errors.serverIds}
        >
          <select
            id="mw-servers"
            className="select"
            name="serverIds"
            multiple
            size={Math.min(8, servers.length || 1)}
            defaultValue={[...chosen]}
          >
            {servers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Environment" htmlFor="mw-environment" error={errors.environment}>
          <select id="mw-environment" className="select" name="environment" defaultValue={values?.environment ?? ''}>
            <option value="">Any environment</option>
            {ENVIRONMENTS.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Starts" htmlFor="mw-start" error={errors.startsAt}>
          <input
            id="mw-start"
            className="input"
            name="startsAt"
            type="datetime-local"
            required
            defaultValue={values?.startsAt}
          />
        </Field>
        <Field label="Ends" htmlFor="mw-end" error={errors.endsAt}>
          <input
            id="mw-end"
            className="input"
            name="endsAt"
            type="datetime-local"
            required
            defaultValue={values?.endsAt}
          />
        </Field>
        <label>
          <input type="checkbox" name="weekly" value="on" defaultChecked={values?.weekly} /> Every week at the same time
        </label>
        <div>
          <button type="submit" className="btn btn--primary">
            Add window
          </button>
        </div>
      </form>
    </Card>
  );
}

/** /admin/maintenance-windows: the windows (open ones marked), a form to add one, Delete buttons. */
export function MaintenanceWindowsPage(props: Props) {
  const names = new Map(props.servers.map((s) => [s.id, s.name]));
  return (
    <div className="stack">
      <Card title="Maintenance windows">
        {props.windows.length ? (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Covers</th>
                  <th scope="col">When</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {props.windows.map((w) => (
                  <WindowRow key={w.id} w={w} names={names} timeZone={props.timeZone} />
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <EmptyState icon="clock" title="No maintenance windows" text="Every offline server is alerted." />
        )}
      </Card>
      <NewWindowForm servers={props.servers} timeZone={props.timeZone} errors={props.errors} values={props.values} />
    </div>
  );
}
