import { serverStatuses } from '../db/schema';
import { formatDateTime } from '../ui/shared';
import { HIGH_USAGE_PERCENT, type HealthReport } from './service';

/** One table of the report, as plain strings (shared by the e-mail and the page). */
export interface ReportSection {
  id: string;
  title: string;
  head: string[];
  rows: string[][];
  empty: string;
}

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
      head: ['Server', 'Environment', 'From', 'Now', 'Changes', 'Last change'],
      rows: report.changed.map((c) => [
        c.name,
        c.environment,
        c.from ?? 'unknown',
        c.status,
        String(c.changes),
        when(c.lastChangedAt),
      ]),
      empty: 'No server changed state.',
    },
    {
      id: 'offline-long',
      title: 'Offline for more than an hour',
      head: ['Server', 'Environment', 'Offline since'],
      rows: report.offlineLong.map((s) => [s.name, s.environment, s.offlineSince ? when(s.offlineSince) : 'Unknown']),
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
