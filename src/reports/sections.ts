import { serverStatuses } from '../db/schema';
import { itemHref, spaceOf } from '../knowledge/shared';
import { formatDateTime } from '../ui/shared';
import { HIGH_USAGE_PERCENT, type HealthReport } from './service';

/** A link to an item's page (an app path; the e-mail makes it absolute). */
export interface ReportLink {
  text: string;
  href: string;
}

/** A cell: plain text, or links (a server's runbooks). */
export type ReportCell = string | ReportLink[];

/** One table of the report (shared by the e-mail and the page). */
export interface ReportSection {
  id: string;
  title: string;
  head: string[];
  rows: ReportCell[][];
  empty: string;
}

/** A cell as plain text: links by their titles; "None" for a server without runbooks. */
export const cellText = (cell: ReportCell): string =>
  typeof cell === 'string' ? cell : cell.map((l) => l.text).join(', ') || 'None';

/** The runbooks cell of a server: each linked document's page. */
const runbooksCell = (report: HealthReport, serverId: string): ReportLink[] =>
  (report.runbooks[serverId] ?? []).map((d) => ({ text: d.title, href: itemHref(spaceOf(d.space), d.id, d.title) }));

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const pct = (n: number) => `${Math.round(n)}%`;

/** "12 servers: 9 online, 1 warning, 2 offline" (statuses with zero servers left out). */
export function statusSummary(report: HealthReport): string {
  const parts = serverStatuses.filter((s) => report.byStatus[s] > 0).map((s) => `${report.byStatus[s]} ${s}`);
  return `${report.total} server${report.total === 1 ? '' : 's'}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** The report's sections in reading order. */
export function reportSections(report: HealthReport, timeZone: string): ReportSection[] {
  const when = (d: Date | null) => formatDateTime(d, timeZone);
  return [
    {
      id: 'by-environment',
      title: 'Servers by environment and status',
      head: ['Environment', 'Total', ...serverStatuses.map(cap)],
      rows: [
        ...report.byEnvironment.map((e) => [
          cap(e.environment),
          String(e.total),
          ...serverStatuses.map((s) => String(e.byStatus[s])),
        ]),
        ['All', String(report.total), ...serverStatuses.map((s) => String(report.byStatus[s]))],
      ],
      empty: 'No servers.',
    },
    {
      id: 'changed',
      title: 'Changed state since the last report',
      head: ['Server', 'Environment', 'From', 'Now', 'Changes', 'Last change', 'Runbooks'],
      rows: report.changed.map((c) => [
        c.name,
        c.environment,
        c.from ?? 'unknown',
        c.status,
        String(c.changes),
        when(c.lastChangedAt),
        runbooksCell(report, c.id),
      ]),
      empty: 'No server changed state.',
    },
    {
      id: 'offline-long',
      title: 'Offline for more than an hour',
      head: ['Server', 'Environment', 'Offline since', 'Runbooks'],
      rows: report.offlineLong.map((s) => [
        s.name,
        s.environment,
        s.offlineSince ? when(s.offlineSince) : 'Unknown',
        runbooksCell(report, s.id),
      ]),
      empty: 'No server has been offline for more than an hour.',
    },
    {
      id: 'high-usage',
      title: `Usage at or above ${HIGH_USAGE_PERCENT}%`,
      head: ['Server', 'Environment', 'CPU', 'Memory', 'Disk'],
      rows: report.highUsage.map((s) => [s.name, s.environment, pct(s.cpu), pct(s.memory), pct(s.disk)]),
      empty: `No server at or above ${HIGH_USAGE_PERCENT}% CPU, memory or disk.`,
    },
    {
      id: 'stale-metrics',
      title: 'Stale metrics (reachable, no metrics for over an hour)',
      head: ['Server', 'Environment', 'Status', 'Metrics updated'],
      rows: report.staleMetrics.map((s) => [
        s.name,
        s.environment,
        s.status,
        s.metricsUpdatedAt ? when(s.metricsUpdatedAt) : 'Never',
      ]),
      empty: 'Every reachable server reported metrics within the hour.',
    },
  ];
}
