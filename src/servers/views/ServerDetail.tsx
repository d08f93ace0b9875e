import { Badge, Card, EmptyState } from '../../ui/components';
import { environmentColour, formatDateTime, statusColour } from '../../ui/shared';
import { lastCheckText, uptimeText, usageText, type Server } from '../schemas';
import type { CheckBoardEntry } from '../checks';
import { DETAIL_ROUNDS } from '../detail';
import type { HealthCheckEntry, LinkedDocument } from '../service';
import { ServerChecks } from './ServerChecks';
import { ServerRunbooks, type LinkSearch } from './ServerRunbooks';
import { Sparkline } from './Sparkline';
import { UptimeCard, type UptimeCardProps } from './UptimeCard';

export interface ServerDetailProps {
  server: Server;
  checks: HealthCheckEntry[];
  /** Each check with its last result and history (the Checks card). */
  checkBoard: CheckBoardEntry[];
  /** May the reader see raw socket/TLS errors (admins)? */
  showCheckDetail: boolean;
  links: LinkedDocument[];
  /** The "Link a document" search (null for those who may not link). */
  search: LinkSearch | null;
  timeZone: string;
  linkError?: string;
  /** May the reader change servers (can content.write)? Viewers and auditors get no forms. */
  canWrite: boolean;
  /** Availability per period and the environment's SLA target. */
  uptime?: UptimeCardProps;
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
    [
      'Tags',
      s.tags.length ? (
        <span key="tags" className="row" style={{ gap: '0.25rem', flexWrap: 'wrap' }}>
          {s.tags.map((t) => (
            <Badge key={t} colour="neutral">
              {t}
            </Badge>
          ))}
        </span>
      ) : null,
    ],
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
        <div key={k}>
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

/** /infrastructure/{id}: every field, the last DETAIL_ROUNDS health checks with a sparkline, its runbooks. */
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
          {props.uptime && <UptimeCard {...props.uptime} />}
          <ServerChecks board={props.checkBoard} timeZone={timeZone} showDetail={props.showCheckDetail} />
          <Card title="Health checks" subtitle={`Last ${props.checks.length} of at most ${DETAIL_ROUNDS}`}>
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
