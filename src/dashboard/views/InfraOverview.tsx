import { Badge, Card, EmptyState } from '../../ui/components';
import { uptimeText, usageText } from '../../servers/shared';
import { environmentColour, formatNumber, statusColour } from '../../ui/shared';
import { Icon } from '../../ui/icons';
import type { EnvironmentFilter, OverviewServer } from '../service';

const envLabels: Record<EnvironmentFilter, string> = {
  all: 'All Environments',
  production: 'Production',
  staging: 'Staging',
  development: 'Development',
};
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Spec texts: a chosen environment with no servers is "not found" even when there are none at all. */
const emptyTitle = (environment: EnvironmentFilter, total: number) =>
  environment === 'all' && total === 0 ? 'No servers configured' : 'No servers found for this environment';

export interface InfraOverviewProps {
  environment: EnvironmentFilter;
  rows: OverviewServer[];
  matching: number;
  total: number;
  /** May the reader edit servers? Viewers and auditors get no Edit link. */
  canWrite: boolean;
}

function ServerRow({ s, canWrite }: { s: OverviewServer; canWrite: boolean }) {
  return (
    <tr>
      <td>
        <span className="row dash-server">
          <Icon
            name={/db/i.test(s.name) ? 'database' : 'server'}
            label={/db/i.test(s.name) ? 'Database server' : undefined}
          />
          <span>
            <span className="dash-server__name">{s.name}</span>
            {s.ipAddress && <span className="muted small dash-server__ip">{s.ipAddress}</span>}
          </span>
        </span>
      </td>
      <td>
        <Badge colour={statusColour(s.status)}>{cap(s.status)}</Badge>
      </td>
      <td>
        <Badge colour={environmentColour(s.environment)} outline>
          {cap(s.environment)}
        </Badge>
      </td>
      <td>{usageText(s, s.cpuUsage)}</td>
      <td>{usageText(s, s.memoryUsage)}</td>
      <td>{uptimeText(s)}</td>
      <td>
        <span className="row">
          <a className="icon-button" href={`/infrastructure/${s.id}`} aria-label={`View ${s.name}`}>
            <Icon name="eye" />
          </a>
          {canWrite && (
            <a className="icon-button" href={`/infrastructure?server=${s.id}`} aria-label={`Edit ${s.name}`}>
              <Icon name="edit" />
            </a>
          )}
          {/* A server has no settings screen of its own: its detail page holds its health checks and linked documents. */}
          <a className="icon-button" href={`/infrastructure/${s.id}`} aria-label={`Settings for ${s.name}`}>
            <Icon name="settings" />
          </a>
        </span>
      </td>
    </tr>
  );
}

/** Infrastructure Overview: environment filter (htmx, kept in the URL), refresh, server table. */
export function InfraOverview({ environment, rows, matching, total, canWrite }: InfraOverviewProps) {
  const filter = (
    <form
      className="row"
      method="get"
      action="/"
      hx-get="/"
      hx-trigger="change"
      hx-target="#infra-overview"
      hx-swap="outerHTML"
      hx-push-url="true"
      hx-indicator="#infra-overview"
    >
      <label className="visually-hidden" htmlFor="environment-filter">
        Environment
      </label>
      <select id="environment-filter" name="environment" className="select" defaultValue={environment}>
        {Object.entries(envLabels).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="btn btn--sm">
          Apply
        </button>
      </noscript>
      <button
        type="button"
        className="icon-button"
        aria-label="Refresh"
        hx-get="/"
        hx-include="closest form"
        hx-target="#infra-overview"
        hx-swap="outerHTML"
      >
        <Icon name="refresh" />
      </button>
    </form>
  );
  return (
    <div id="infra-overview" className="dash-infra">
      <Card title="Infrastructure Overview" actions={filter}>
        {rows.length === 0 ? (
          <EmptyState icon="server" title={emptyTitle(environment, total)} />
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Server</th>
                  <th>Status</th>
                  <th>Environment</th>
                  <th>CPU</th>
                  <th>Memory</th>
                  <th>Uptime</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((s) => (
                  <ServerRow key={s.id} s={s} canWrite={canWrite} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {matching > rows.length && (
          <p className="muted small dash-infra__more">
            Showing {rows.length} of {formatNumber(matching)} servers ·{' '}
            <a href={environment === 'all' ? '/infrastructure' : `/infrastructure?environment=${environment}`}>
              View all
            </a>
          </p>
        )}
      </Card>
    </div>
  );
}
