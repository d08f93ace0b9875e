import { serverStatuses } from '../db/schema';
import { itemHref, spaceOf, SPACES } from '../knowledge/shared';
import { flagValueWords, REVIEW_FLAG_LABELS } from '../runbooks/shared';
import { formatDateTime } from '../ui/shared';
import { HIGH_USAGE_PERCENT, type FlaggedDocument, type HealthReport, type RunbookRef } from './service';

/** A link to a page of the app (an app path; the e-mail makes it absolute). */
export interface ReportLink {
  text: string;
  href: string;
}

/** A cell: plain text, or links (a server, a document, a server's runbooks). */
export type ReportCell = string | ReportLink[];

/** One table of the report (shared by the e-mail and the page). */
export interface ReportSection {
  id: string;
  title: string;
  head: string[];
  rows: ReportCell[][];
  empty: string;
  /** What the rows count ("server", "document", "change"), for "3 servers" and "… and 4 more". */
  noun: string;
  /** How many there are in all when the rows are capped (more than the rows shown). */
  total?: number;
}

/** A cell as plain text: links by their titles; "None" for a server without runbooks. */
export const cellText = (cell: ReportCell): string =>
  typeof cell === 'string' ? cell : cell.map((l) => l.text).join(', ') || 'None';

/** "3 servers", "1 document". */
export const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** "… and 4 more documents." under a capped table, or null when every row is shown. */
export function moreText(section: ReportSection): string | null {
  const rest = (section.total ?? section.rows.length) - section.rows.length;
  return rest > 0 ? `… and ${rest} more ${section.noun}${rest === 1 ? '' : 's'}.` : null;
}

const serverCell = (s: { id: string; name: string }): ReportLink[] => [
  { text: s.name, href: `/infrastructure/${s.id}` },
];
const documentLink = (d: RunbookRef): ReportLink => ({
  text: d.title,
  href: itemHref(spaceOf(d.space), d.id, d.title),
});

/** The runbooks cell of a server: each linked document's page. */
const runbooksCell = (report: HealthReport, serverId: string): ReportLink[] =>
  (report.runbooks[serverId] ?? []).map(documentLink);

/** Where to write the runbook a server lacks: a new work instruction, linked to it on save. */
const newRunbookLink = (serverId: string): ReportLink[] => [
  { text: 'Write a runbook', href: `/knowledge-base/new?type=work-instruction&server=${serverId}` },
];

/** A down server's runbooks, or (none the reader may read) the way to write one, so the reader can act. */
const runbooksOrNew = (report: HealthReport, serverId: string): ReportLink[] => {
  const links = runbooksCell(report, serverId);
  return links.length ? links : newRunbookLink(serverId);
};

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const pct = (n: number) => `${Math.round(n)}%`;
/** "Knowledge Base" or "Documents": where the item lives. */
const spaceName = (space: string) => SPACES[spaceOf(space)].page.title;

/** "IP address: 127.0.0.1 → 127.0.0.2"; "Server deleted". */
function changeText(f: FlaggedDocument): string {
  if (f.field === 'deleted') return REVIEW_FLAG_LABELS.deleted;
  return `${REVIEW_FLAG_LABELS[f.field]}: ${flagValueWords(f.from)} → ${flagValueWords(f.to)}`;
}

/** "12 servers: 9 online, 1 warning, 2 offline" (statuses with zero servers left out). */
export function statusSummary(report: HealthReport): string {
  const parts = serverStatuses.filter((s) => report.byStatus[s] > 0).map((s) => `${report.byStatus[s]} ${s}`);
  return `${countOf(report.total, 'server')}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** What the report covers, in words. */
export const scopeText = (report: HealthReport) =>
  report.team === null
    ? 'Covers every server.'
    : `Covers the servers owned by ${report.team} and the documents linked to them.`;

type When = (d: Date | null) => string;

function fleetSections(report: HealthReport, when: When): ReportSection[] {
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
      noun: 'environment',
    },
    {
      id: 'down',
      title: 'Servers down and their runbooks',
      head: ['Server', 'Environment', 'Team', 'Offline since', 'Runbooks'],
      rows: report.down.map((s) => [
        serverCell(s),
        s.environment,
        s.teamOwner ?? '—',
        s.offlineSince ? when(s.offlineSince) : 'Unknown',
        runbooksOrNew(report, s.id),
      ]),
      empty: 'No server is down.',
      noun: 'server',
      total: report.byStatus.offline,
    },
    {
      id: 'changed',
      title: 'Changed state since the last report',
      head: ['Server', 'Environment', 'From', 'Now', 'Changes', 'Last change', 'Runbooks'],
      rows: report.changed.map((c) => [
        serverCell(c),
        c.environment,
        c.from ?? 'unknown',
        c.status,
        String(c.changes),
        when(c.lastChangedAt),
        runbooksCell(report, c.id),
      ]),
      empty: 'No server changed state.',
      noun: 'server',
    },
    {
      id: 'offline-long',
      title: 'Offline for more than an hour',
      head: ['Server', 'Environment', 'Offline since'],
      rows: report.offlineLong.map((s) => [
        serverCell(s),
        s.environment,
        s.offlineSince ? when(s.offlineSince) : 'Unknown',
      ]),
      empty: 'No server has been offline for more than an hour.',
      noun: 'server',
    },
    {
      id: 'high-usage',
      title: `Usage at or above ${HIGH_USAGE_PERCENT}%`,
      head: ['Server', 'Environment', 'CPU', 'Memory', 'Disk'],
      rows: report.highUsage.map((s) => [serverCell(s), s.environment, pct(s.cpu), pct(s.memory), pct(s.disk)]),
      empty: `No server at or above ${HIGH_USAGE_PERCENT}% CPU, memory or disk.`,
      noun: 'server',
    },
    {
      id: 'uptime',
      title: 'Uptime over 30 days by environment',
      head: ['Environment', 'Uptime', 'SLA target', 'Servers below target'],
      rows: report.uptime.map((u) => [
        cap(u.environment),
        u.uptime30d === null ? 'No checks' : `${u.uptime30d.toFixed(3)}%`,
        u.target === null ? 'None' : `${u.target}%`,
        u.target === null ? '—' : String(u.missed),
      ]),
      empty: 'No environments.',
      noun: 'environment',
    },
    {
      id: 'sla-missed',
      title: 'Servers that missed their SLA (30 days)',
      head: ['Server', 'Environment', 'Uptime', 'SLA target'],
      rows: report.slaMissed.rows.map((s) => [
        serverCell(s),
        s.environment,
        `${s.uptime30d.toFixed(3)}%`,
        `${s.target}%`,
      ]),
      empty: 'No server missed its SLA target.',
      noun: 'server',
      total: report.slaMissed.total,
    },
    {
      id: 'stale-metrics',
      title: 'Stale metrics (reachable, no metrics for over an hour)',
      head: ['Server', 'Environment', 'Status', 'Metrics updated'],
      rows: report.staleMetrics.map((s) => [
        serverCell(s),
        s.environment,
        s.status,
        s.metricsUpdatedAt ? when(s.metricsUpdatedAt) : 'Never',
      ]),
      empty: 'Every reachable server reported metrics within the hour.',
      noun: 'server',
    },
  ];
}

function documentationSections(report: HealthReport, when: When): ReportSection[] {
  return [
    {
      id: 'flagged',
      title: 'Documents flagged by a server change',
      head: ['Document', 'Server', 'Change', 'When', 'By'],
      rows: report.flagged.rows.map((f) => [[documentLink(f.document)], f.serverName, changeText(f), when(f.at), f.by]),
      empty: 'No document waits for a review after a server change.',
      noun: 'change',
      total: report.flagged.total,
    },
    {
      id: 'overdue',
      title: 'Overdue reviews',
      head: ['Document', 'Where', 'Review due'],
      rows: report.overdue.rows.map((d) => [[documentLink(d)], spaceName(d.space), when(d.reviewDueAt)]),
      empty: 'No document is overdue for review.',
      noun: 'document',
      total: report.overdue.total,
    },
    {
      id: 'without-runbook',
      title: 'Servers without a runbook',
      head: ['Server', 'Environment', 'Status', 'Team', 'Runbook'],
      rows: report.withoutRunbook.rows.map((s) => [
        serverCell(s),
        s.environment,
        s.status,
        s.teamOwner ?? '—',
        newRunbookLink(s.id),
      ]),
      empty: 'Every server has at least one linked document.',
      noun: 'server',
      total: report.withoutRunbook.total,
    },
  ];
}

/** The report's sections in reading order. */
export function reportSections(report: HealthReport, timeZone: string): ReportSection[] {
  const when: When = (d) => formatDateTime(d, timeZone);
  return [...fleetSections(report, when), ...documentationSections(report, when)];
}
