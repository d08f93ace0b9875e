import { Badge, Card, EmptyState } from '../../ui/components';
import { environmentColour, formatDateTime, statusColour } from '../../ui/shared';
import { lastCheckText, uptimeText, usageText, type Server } from '../schemas';
import type { HealthCheckEntry, LinkedDocument } from '../service';
import { ServerRunbooks, type LinkSearch } from './ServerRunbooks';
import { Sparkline } from './Sparkline';

export interface ServerDetailProps {
  server: Server;
  checks: HealthCheckEntry[];
  links: LinkedDocument[];
  /** The "Link a document" search (null for those who may not link). */
  search: LinkSearch | null;
  timeZone: string;
  linkError?: string;
  /** May the reader change servers (can content.write)? Viewers and auditors get no forms. */
  canWrite: boolean;
}

function Facts({ server: s, timeZone }: { server: Server; timeZone: string }) {
  const rows: [string, React.ReactNode][] = [
    [
      'Status',
      <Badge key="status" colour={statusColour(s.status)}>
        {s.status}
      </Badge>,
    ],
    [
      'Environment',
      <Badge key="environment" colour={environmentColour(s.environment)}>
        {s.environment}
      </Badge>,
    ],
    ['Hostname', s.hostname],
    ['IP address', s.ipAddress],
    ['Monitor port', String(s.monitorPort)],
    ['Domain', s.domain],
    ['Network zone', s.network],
    ['Operating system', s.operatingSystem],
    ['Server type', s.serverType],
    ['Hardware model', s.hardwareModel],
    ['Location', s.serverLocation],
    ['Primary function', s.primaryFunction],
    ['Secondary function', s.secondaryFunction],
    ['Tertiary function', s.tertiaryFunction],
    ['Team owner', s.teamOwner],
    ['Key contacts', s.keyContacts],
    ['Managed by', s.managedBy],
    ['CPU', usageText(s, s.cpuUsage)],
    ['Memory', usageText(s, s.memoryUsage)],
    ['Disk', usageText(s, s.diskUsage)],
    ['Uptime', uptimeText(s)],
    ['Last health check', lastCheckText(s, (iso) => formatDateTime(iso, timeZone))],
    ['Description', s.description],
    ['Notes', s.notes],
    ['Created', formatDateTime(s.createdAt, timeZone)],
    ['Updated', formatDateTime(s.updatedAt, timeZone)],
  ];
  return (
    <dl className="kv">
      {rows.map(([k, v]) => (
        <div key={k} style={{ display: 'contents' }}>
          <dt>{k}</dt>
          <dd>{v || '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

function Checks({ checks, timeZone }: { checks: HealthCheckEntry[]; timeZone: string }) {
  if (checks.length === 0)
    return <EmptyState icon="activity" title="No health checks yet" text="Run a health check to start the history." />;
  return (
    <>
      <Sparkline checks={checks} />
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Checked</th>
              <th>Status</th>
              <th>Latency</th>
              <th>Error</th>
            </tr>
          </thead>
          <tbody>
            {checks.map((h) => (
              <tr key={h.id}>
                <td>{formatDateTime(h.checkedAt, timeZone)}</td>
                <td>
                  <Badge colour={statusColour(h.status)}>{h.status}</Badge>
                </td>
                <td>{h.latencyMs === null ? '—' : `${h.latencyMs} ms`}</td>
                <td className="muted small">{h.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** /infrastructure/{id}: every field, the last 50 health checks with a sparkline, its runbooks. */
export function ServerDetail(props: ServerDetailProps) {
  const { server, timeZone } = props;
  return (
    <div className="stack server-detail">
      <div className="row">
        <a className="btn btn--ghost" href={`/infrastructure?server=${server.id}`}>
          ← Back to Infrastructure
        </a>
        <span className="spacer" />
        <a className="btn btn--ghost" href={`/infrastructure/${server.id}/activity`}>
          Activity
        </a>
        {props.canWrite && (
          <form method="post" action={`/infrastructure/${server.id}/health-check`}>
            <button type="submit" className="btn" disabled={server.status === 'maintenance'}>
              Run Health Check
            </button>
          </form>
        )}
      </div>
      <div className="grid grid--2">
        <Card title={server.name} subtitle="Server details">
          <Facts server={server} timeZone={timeZone} />
        </Card>
        <div className="stack">
          <Card title="Health checks" subtitle={`Last ${props.checks.length} of at most 50`}>
            <Checks checks={props.checks} timeZone={timeZone} />
          </Card>
          <ServerRunbooks
            serverId={server.id}
            links={props.links}
            search={props.search}
            linkError={props.linkError}
            canWrite={props.canWrite}
          />
        </div>
      </div>
    </div>
  );
}
