import type { ColumnDef } from '@tanstack/react-table';
import { environmentColour, formatDateTime, statusColour } from '../../../src/ui/shared';
import {
  compareServerNames,
  lastCheckText,
  serverRunbooksHref,
  uptimeText,
  usageText,
  type Server,
} from '../../../src/servers/shared';
import { Icon } from '../icons';

export interface RowActions {
  edit(s: Server): void;
  check(s: Server): void;
  remove(s: Server): void;
  busyId: string | null;
  /** Edit, Create build document, Run check and Delete only for those who may (viewers and auditors only view). */
  canWrite: boolean;
}

const text = (v: string | null) => v ?? '—';

/** A pushed usage with its bar; "—" and no bar when no agent ever pushed metrics. */
function Usage({ server, value }: { server: Server; value: number }) {
  if (!server.metricsUpdatedAt) return usageText(server, value);
  return (
    <span className="server-usage">
      <span>{usageText(server, value)}</span>
      <span className="progress" aria-hidden="true">
        <span style={{ width: `${Math.min(100, Math.max(0, value ?? 0))}%` }} />
      </span>
    </span>
  );
}

/** A metric to sort by: servers that never pushed metrics sort below every known value. */
const metric = (s: Server, value: number) => (s.metricsUpdatedAt ? value : -1);

/** The server table's columns (ids = spec §9 column keys); times in the user's timezone. */
export function serverColumns(
  actions: RowActions,
  docCounts: Record<string, number>,
  timeZone: string,
): ColumnDef<Server>[] {
  return [
    {
      id: 'server',
      header: 'Server',
      accessorFn: (s) => s.name,
      sortingFn: (a, b) => compareServerNames(a.original.name, b.original.name),
      cell: ({ row: { original: s } }) => (
        <div className="server-cell">
          <span className="server-cell__name">{s.name}</span>
          <span className="muted small">{s.ipAddress ?? s.hostname ?? ''}</span>
          {docCounts[s.id] ? (
            <a className="muted small" href={serverRunbooksHref(s.id)}>
              {docCounts[s.id] === 1 ? '1 runbook' : `${docCounts[s.id]} runbooks`}
            </a>
          ) : null}
        </div>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      accessorFn: (s) => s.status,
      cell: ({ row: { original: s } }) => (
        <span className={`badge badge--${statusColour(s.status)}`}>
          <span
            className={`status-dot status-dot--${statusColour(s.status) === 'neutral' ? 'grey' : statusColour(s.status)}`}
          />{' '}
          {s.status}
        </span>
      ),
    },
    {
      id: 'environment',
      header: 'Environment',
      accessorFn: (s) => s.environment,
      cell: ({ row: { original: s } }) => (
        <span className={`badge badge--${environmentColour(s.environment)}`}>{s.environment}</span>
      ),
    },
    {
      id: 'cpu',
      header: 'CPU',
      accessorFn: (s) => metric(s, s.cpuUsage),
      cell: ({ row: { original: s } }) => <Usage server={s} value={s.cpuUsage} />,
    },
    {
      id: 'memory',
      header: 'Memory',
      accessorFn: (s) => metric(s, s.memoryUsage),
      cell: ({ row: { original: s } }) => <Usage server={s} value={s.memoryUsage} />,
    },
    {
      id: 'uptime',
      header: 'Uptime',
      accessorFn: (s) => metric(s, s.uptime),
      cell: ({ row: { original: s } }) => uptimeText(s),
    },
    {
      id: 'lastCheck',
      header: 'Last Check',
      accessorFn: (s) => s.lastHealthCheck ?? '',
      cell: ({ row: { original: s } }) => lastCheckText(s, (iso) => formatDateTime(iso, timeZone)),
    },
    {
      id: 'os',
      header: 'OS',
      accessorFn: (s) => s.operatingSystem ?? '',
      cell: ({ row }) => text(row.original.operatingSystem),
    },
    {
      id: 'serverType',
      header: 'Type',
      accessorFn: (s) => s.serverType ?? '',
      cell: ({ row }) => text(row.original.serverType),
    },
    {
      id: 'location',
      header: 'Location',
      accessorFn: (s) => s.serverLocation ?? '',
      cell: ({ row }) => text(row.original.serverLocation),
    },
    {
      id: 'primaryFunction',
      header: 'Primary Function',
      accessorFn: (s) => s.primaryFunction ?? '',
      cell: ({ row }) => text(row.original.primaryFunction),
    },
    {
      id: 'team',
      header: 'Team',
      accessorFn: (s) => s.teamOwner ?? '',
      cell: ({ row }) => text(row.original.teamOwner),
    },
    {
      id: 'actions',
      header: 'Actions',
      enableSorting: false,
      cell: ({ row: { original: s } }) => (
        <div className="server-actions">
          {actions.canWrite && (
            <button
              type="button"
              className="icon-button"
              aria-label={`Edit ${s.name}`}
              title="Edit"
              onClick={() => actions.edit(s)}
            >
              <Icon name="edit" />
            </button>
          )}
          <a className="icon-button" href={`/infrastructure/${s.id}`} aria-label={`View ${s.name}`} title="View">
            <Icon name="eye" />
          </a>
          {actions.canWrite && <WriteActions s={s} actions={actions} />}
        </div>
      ),
    },
  ];
}

/** Create build document, Run check and Delete of one row. */
function WriteActions({ s, actions }: { s: Server; actions: RowActions }) {
  return (
    <>
      <a
        className="icon-button"
        href={`/knowledge-base/new?type=build-document&server=${s.id}`}
        aria-label={`Create build document for ${s.name}`}
        title="Create build document"
      >
        <Icon name="file-plus" />
      </a>
      <button
        type="button"
        className="icon-button"
        aria-label={`Run health check on ${s.name}`}
        title="Health check"
        disabled={actions.busyId === s.id}
        onClick={() => actions.check(s)}
      >
        <Icon name="activity" />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={`Delete ${s.name}`}
        title="Delete"
        onClick={() => actions.remove(s)}
      >
        <Icon name="trash" />
      </button>
    </>
  );
}
