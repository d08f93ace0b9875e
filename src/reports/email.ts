import { escapeHtml, type MailContent } from '../mail/service';
import { formatDateTime } from '../ui/shared';
import type { HealthReport } from './service';
import {
  cellText,
  moreText,
  reportSections,
  scopeText,
  statusSummary,
  type ReportCell,
  type ReportSection,
} from './sections';

const CELL = 'style="border:1px solid #d1d5db;padding:4px 8px;text-align:left"';

/** A cell in HTML: text escaped, links to the app made absolute. */
function htmlCell(cell: ReportCell, appUrl: string): string {
  if (typeof cell === 'string') return escapeHtml(cell);
  if (!cell.length) return escapeHtml(cellText(cell));
  return cell.map((l) => `<a href="${escapeHtml(appUrl + l.href)}">${escapeHtml(l.text)}</a>`).join(', ');
}

function htmlTable(head: string[], rows: ReportCell[][], appUrl: string): string {
  const th = head.map((h) => `<th ${CELL}>${escapeHtml(h)}</th>`).join('');
  const trs = rows
    .map((r) => `<tr>${r.map((c) => `<td ${CELL}>${htmlCell(c, appUrl)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table style="border-collapse:collapse;font-size:13px;margin:0 0 16px"><thead><tr style="background:#f3f4f6">${th}</tr></thead><tbody>\n${trs}\n</tbody></table>`;
}

function textTable(head: string[], cells: ReportCell[][]): string {
  const rows = cells.map((r) => r.map(cellText));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The plain-text part cannot link a title: each linked page follows its table as "title: URL". */
function textLinks(section: ReportSection, appUrl: string): string[] {
  const links = new Map<string, string>();
  for (const cell of section.rows.flat()) {
    if (typeof cell !== 'string') for (const l of cell) links.set(appUrl + l.href, l.text);
  }
  return [...links].map(([url, text]) => `  ${text}: ${url}`);
}

function textSection(section: ReportSection, appUrl: string): string[] {
  if (!section.rows.length) return [section.title, section.empty, ''];
  const more = moreText(section);
  return [
    section.title,
    textTable(section.head, section.rows),
    ...(more ? [more] : []),
    ...textLinks(section, appUrl),
    '',
  ];
}

function htmlSection(section: ReportSection, appUrl: string): string {
  const title = `<h2 style="font-size:15px;margin:16px 0 6px">${escapeHtml(section.title)}</h2>`;
  if (!section.rows.length) return `${title}\n<p>${escapeHtml(section.empty)}</p>`;
  const more = moreText(section);
  return `${title}\n${htmlTable(section.head, section.rows, appUrl)}${more ? `\n<p>${escapeHtml(more)}</p>` : ''}`;
}

/** The daily health report e-mail: a plain-text part and a simple HTML table per section. */
export function healthReportMail(
  report: HealthReport,
  opts: { appUrl: string; firstName?: string | null; timeZone: string },
): MailContent {
  const tz = opts.timeZone;
  const sections = reportSections(report, tz);
  const url = `${opts.appUrl}/reports/health`;
  const headline = statusSummary(report);
  const subject = `Ops Hub health report${report.team === null ? '' : ` (${report.team})`}: ${headline}`;
  const intro = `Fleet health on ${formatDateTime(report.generatedAt, tz)} (changes since ${formatDateTime(report.since, tz)}; times in ${tz}). ${scopeText(report)}`;
  const greeting = opts.firstName ? `Hello ${opts.firstName},` : 'Hello,';
  const text = [
    greeting,
    '',
    intro,
    '',
    ...sections.flatMap((s) => textSection(s, opts.appUrl)),
    `Full report: ${url}`,
    '',
    'You receive this because you are an administrator or switched on health reports in your settings.',
    `Choose which servers it covers in your settings: ${opts.appUrl}/settings`,
    '— Ops Hub',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<h1 style="font-size:18px">Ops Hub health report</h1>
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
${sections.map((s) => htmlSection(s, opts.appUrl)).join('\n')}
<p><a href="${escapeHtml(url)}">Open the full report</a></p>
<p style="font-size:12px;color:#6b7280">You receive this because you are an administrator or switched on health reports in your settings. <a href="${escapeHtml(opts.appUrl)}/settings">Choose which servers it covers</a>.</p>
</body></html>`;
  return { subject, text, html };
}
