import { Badge, Banner, Card, EmptyState, Field } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import { ENVIRONMENTS } from '../../servers/shared';
import type { AlertRule, FailedDelivery } from '../service';
import { ALERT_CHANNELS, WEBHOOK_FORMATS } from '../shared';

interface Person {
  id: string;
  email: string;
  name: string;
}

export interface AlertRulesPageProps {
  rules: AlertRule[];
  failed: FailedDelivery[];
  people: Person[];
  timeZone: string;
  errors?: Record<string, string>;
  values?: Record<string, string | string[]>;
}

const hostOf = (url: string | null) => (url && URL.canParse(url) ? new URL(url).host : '');

function whoHears(rule: AlertRule, people: Person[]): string {
  if (rule.channel === 'webhook') return `${rule.webhookFormat ?? 'json'} webhook to ${hostOf(rule.webhookUrl)}`;
  const byId = new Map(people.map((p) => [p.id, p.email]));
  return rule.userIds.map((id) => byId.get(id) ?? 'an inactive user').join(', ');
}

function RuleRow({ rule, people }: { rule: AlertRule; people: Person[] }) {
  return (
    <tr>
      <th scope="row" data-label="Name">
        {rule.name} {!rule.enabled && <Badge>Disabled</Badge>}
      </th>
      <td data-label="Servers">
        {[
          rule.environment ?? 'every environment',
          rule.teamOwner ? `team ${rule.teamOwner}` : 'every team',
          ...(rule.tag ? [`tag ${rule.tag}`] : []),
        ].join(', ')}
      </td>
      <td data-label="Channel">{rule.channel}</td>
      <td data-label="Who hears">{whoHears(rule, people)}</td>
      <td data-label="Repeat">{`every ${rule.repeatMinutes} min${rule.sendRecovery ? ', recovery' : ''}`}</td>
      <td data-label="Actions">
        <form method="post" action={`/admin/alert-rules/${rule.id}/delete`}>
          <button type="submit" className="btn btn--sm btn--danger" aria-label={`Delete rule ${rule.name}`}>
            Delete
          </button>
        </form>
      </td>
    </tr>
  );
}

/** A select's options, each value its own label. */
const Options = ({ values }: { values: readonly string[] }) =>
  values.map((v) => (
    <option key={v} value={v}>
      {v}
    </option>
  ));

const str = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));

function NewRuleForm({ people, errors = {}, values = {} }: Pick<AlertRulesPageProps, 'people' | 'errors' | 'values'>) {
  const chosen = new Set([values.userIds ?? []].flat());
  const checked = (name: string) => (values.name === undefined ? true : str(values[name]) === 'on');
  return (
    <Card title="New alert rule" subtitle="Which servers, who hears about them, how often while they stay down">
      {errors.form && <Banner variant="error">{errors.form}</Banner>}
      <form method="post" action="/admin/alert-rules" className="stack">
        <Field label="Name" htmlFor="rule-name" error={errors.name}>
          <input
            id="rule-name"
            className="input"
            name="name"
            required
            maxLength={100}
            defaultValue={str(values.name)}
          />
        </Field>
        <Field label="Environment" htmlFor="rule-environment" error={errors.environment}>
          <select id="rule-environment" className="select" name="environment" defaultValue={str(values.environment)}>
            <option value="">Every environment</option>
            <Options values={ENVIRONMENTS} />
          </select>
        </Field>
        <Field label="Team owner" htmlFor="rule-team" hint="Empty: every team" error={errors.teamOwner}>
          <input
            id="rule-team"
            className="input"
            name="teamOwner"
            maxLength={100}
            defaultValue={str(values.teamOwner)}
          />
        </Field>
        <Field label="Tag" htmlFor="rule-tag" hint="Empty: any tag" error={errors.tag}>
          <input id="rule-tag" className="input" name="tag" maxLength={50} defaultValue={str(values.tag)} />
        </Field>
        <Field label="Channel" htmlFor="rule-channel" error={errors.channel}>
          <select id="rule-channel" className="select" name="channel" defaultValue={str(values.channel) || 'email'}>
            <Options values={ALERT_CHANNELS} />
          </select>
        </Field>
        <Field label="Recipients (e-mail and push)" htmlFor="rule-users" error={errors.userIds}>
          <select
            id="rule-users"
            className="select"
            name="userIds"
            multiple
            size={Math.min(6, people.length || 1)}
            defaultValue={[...chosen]}
          >
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name ? `${p.name} (${p.email})` : p.email}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Webhook URL"
          htmlFor="rule-webhook"
          hint="Only to allowed hosts (ALERT_WEBHOOK_HOSTS)"
          error={errors.webhookUrl}
        >
          <input
            id="rule-webhook"
            className="input"
            name="webhookUrl"
            type="url"
            defaultValue={str(values.webhookUrl)}
          />
        </Field>
        <Field label="Webhook body" htmlFor="rule-format" error={errors.webhookFormat}>
          <select id="rule-format" className="select" name="webhookFormat" defaultValue={str(values.webhookFormat)}>
            <option value="">From the URL's host</option>
            <Options values={WEBHOOK_FORMATS} />
          </select>
        </Field>
        <Field label="Repeat every (minutes)" htmlFor="rule-repeat" error={errors.repeatMinutes}>
          <input
            id="rule-repeat"
            className="input"
            name="repeatMinutes"
            type="number"
            min={1}
            required
            defaultValue={str(values.repeatMinutes) || '30'}
          />
        </Field>
        <label>
          <input type="checkbox" name="sendRecovery" value="on" defaultChecked={checked('sendRecovery')} /> Send a
          message when the server is back
        </label>
        <label>
          <input type="checkbox" name="enabled" value="on" defaultChecked={checked('enabled')} /> Enabled
        </label>
        <div>
          <button type="submit" className="btn btn--primary">
            Add rule
          </button>
        </div>
      </form>
    </Card>
  );
}

function FailedList({ failed, timeZone }: { failed: FailedDelivery[]; timeZone: string }) {
  if (!failed.length) return null;
  return (
    <Card title="Failed deliveries" subtitle="Given up on after retries, or refused for good">
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Queued</th>
              <th scope="col">Server</th>
              <th scope="col">Message</th>
              <th scope="col">To</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {failed.map((f) => (
              <tr key={f.id}>
                <td>{formatDateTime(f.createdAt, timeZone)}</td>
                <td>{f.serverName}</td>
                <td>{f.kind}</td>
                <td>{f.channel === 'webhook' ? 'webhook' : `${f.channel}: ${f.recipient ?? 'deleted user'}`}</td>
                <td>{f.attempts}</td>
                <td>{f.lastError}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

/** /admin/alert-rules: the rules, a plain form to add one, Delete buttons, and the deliveries given up on. */
export function AlertRulesPage(props: AlertRulesPageProps) {
  return (
    <div className="stack">
      <Card title="Alert rules">
        {props.rules.length ? (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Servers</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Who hears</th>
                  <th scope="col">Repeat</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {props.rules.map((r) => (
                  <RuleRow key={r.id} rule={r} people={props.people} />
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <EmptyState icon="bell" title="No alert rules yet" text="Nobody is alerted when a server goes offline." />
        )}
      </Card>
      <NewRuleForm people={props.people} errors={props.errors} values={props.values} />
      <FailedList failed={props.failed} timeZone={props.timeZone} />
    </div>
  );
}
