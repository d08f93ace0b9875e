import type { ColumnDef } from '@tanstack/react-table';
import { environmentColour, formatDateTime, statusColour } from '../../../src/ui/shared';
import { lastCheckText, serverRunbooksHref, uptimeText, usageText, type Server } from '../../../src/servers/shared';
import { shownStatus, type ListedServer } from '../../../src/servers/shared/list';
import { SpriteIcon } from '../icons';

export interface RowActions {
  edit(s: Server): void;
  check(s: Server): void;
  remove(s: Server): void;
  busyId: string | null;
  /** Edit, Create build document, Run check and Delete only for those who may (viewers and auditors only view). */
  canWrite: boolean;
  /** The page's icon sprite: each row's icons are one <use> each. */
  iconSprite: string;
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

/** The 30-day availability ("99.95%"), or "—" without data (or before the figures came). */
function availabilityText(s: ListedServer): string {
  const pct = s.availability?.['30d'];
  return pct === null || pct === undefined ? '—' : `${pct.toFixed(2)}%`;
}

/**
 * The status a row shows: "maintenance" while a maintenance window covers the server (the stored status stays in
 * the data), and a "flapping" mark while its status keeps changing.
 */
function StatusBadge({ server: s }: { server: ListedServer }) {
  const status = shownStatus(s);
  const colour = statusColour(status);
  return (
    <span className="server-status">
      <span className={`badge badge--${colour}`}>
        <span className={`status-dot status-dot--${colour === 'neutral' ? 'grey' : colour}`} /> {status}
      </span>
      {s.flappingSince && (
        <span className="badge badge--warning" title="The status keeps changing: notified once, not on every flip.">
          flapping
        </span>
      )}
    </span>
  );
}

/** The server table's columns (ids = spec §9 column keys); times in the user's timezone. */
export function serverColumns(
  actions: RowActions,
  docCounts: Record<string, number>,
  timeZone: string,
): ColumnDef<ListedServer>[] {
  return [
    {
      id: 'server',
      header: 'Server',
      accessorFn: (s) => s.name,
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
      accessorFn: (s) => shownStatus(s),
      cell: ({ row: { original: s } }) => <StatusBadge server={s} />,
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
      id: 'availability',
      header: 'Availability (30 d)',
      accessorFn: (s) => s.availability?.['30d'] ?? -1,
      cell: ({ row: { original: s } }) => availabilityText(s),
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
              <SpriteIcon name="edit" sprite={actions.iconSprite} />
            </button>
          )}
          <a className="icon-button" href={`/infrastructure/${s.id}`} aria-label={`View ${s.name}`} title="View">
            <SpriteIcon name="eye" sprite={actions.iconSprite} />
          </a>
          {actions.canWrite && <WriteActions s={s} actions={actions} />}
        </div>
      ),
    },
  ];
}

/** Create build document, Run check and Delete of one row. */
function WriteActions({ s, actions }: { s: ListedServer; actions: RowActions }) {
  return (
    <>
      <a
        className="icon-button"
        href={`/knowledge-base/new?type=build-document&server=${s.id}`}
        aria-label={`Create build document for ${s.name}`}
        title="Create build document"
      >
        <SpriteIcon name="file-plus" sprite={actions.iconSprite} />
      </a>
      <button
        type="button"
        className="icon-button"
        aria-label={`Run health check on ${s.name}`}
        title="Health check"
        disabled={actions.busyId === s.id}
        onClick={() => actions.check(s)}
      >
        <SpriteIcon name="activity" sprite={actions.iconSprite} />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={`Delete ${s.name}`}
        title="Delete"
        onClick={() => actions.remove(s)}
      >
        <SpriteIcon name="trash" sprite={actions.iconSprite} />
      </button>
    </>
  );
}
