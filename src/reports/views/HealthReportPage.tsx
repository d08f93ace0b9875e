import { serverStatuses } from '../../db/schema';
import { TeamOptions } from '../shared/TeamOptions';
import { Badge, Card } from '../../ui/components';
import { environmentColour, formatDateTime, statusColour } from '../../ui/shared';
import {
  cellText,
  countOf,
  moreText,
  reportSections,
  scopeText,
  type ReportCell,
  type ReportSection,
} from '../sections';
import type { HealthReport } from '../service';

const STATUS_COLUMN = new Set(['From', 'Now', 'Status']);

function Cell({ head, value }: { head: string; value: ReportCell }) {
  if (typeof value !== 'string') {
    if (!value.length) return <span className="muted">{cellText(value)}</span>;
    if (value.length === 1) return <a href={value[0].href}>{value[0].text}</a>;
    return (
      <ul className="report-links">
        {value.map((l) => (
          <li key={l.href}>
            <a href={l.href}>{l.text}</a>
          </li>
        ))}
      </ul>
    );
  }
  if (STATUS_COLUMN.has(head)) return <Badge colour={statusColour(value)}>{value}</Badge>;
  if (head === 'Environment' && value !== 'All')
    return (
      <Badge colour={environmentColour(value.toLowerCase())} outline>
        {value}
      </Badge>
    );
  return <>{value}</>;
}

function SectionCard({ section }: { section: ReportSection }) {
  const more = moreText(section);
  return (
    <Card
      title={section.title}
      subtitle={
        section.id === 'by-environment' || section.id === 'uptime'
          ? undefined
          : countOf(section.total ?? section.rows.length, section.noun)
      }
    >
      {section.rows.length === 0 ? (
        <p className="muted" id={`report-${section.id}`}>
          {section.empty}
        </p>
      ) : (
        <div className="table-wrap" id={`report-${section.id}`}>
          <table className="table">
            <thead>
              <tr>
                {section.head.map((h) => (
                  <th scope="col" key={h}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {section.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((value, j) => (
                    <td key={j}>
                      <Cell head={section.head[j]} value={value} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {more && <p className="muted">{more}</p>}
        </div>
      )}
    </Card>
  );
}

/** Which servers the page covers: a plain GET form (the default is the reader's "Health report covers" setting). */
function TeamChoice({ team, teams }: { team: string | null; teams: string[] }) {
  return (
    <div className="toolbar">
      <form method="get" action="/reports/health" className="row">
        <label htmlFor="report-team">Report covers</label>
        <select id="report-team" className="select" name="team" defaultValue={team ?? ''}>
          <TeamOptions teams={teams} chosen={team} />
        </select>
        <button type="submit" className="btn">
          Show
        </button>
      </form>
    </div>
  );
}

export interface HealthReportPageProps {
  report: HealthReport;
  timeZone: string;
  /** The teams that own servers (the choice of scope). */
  teams: string[];
}

/** /reports/health: the same summary the daily e-mail carries, printable (app.css hides the chrome in print). */
export function HealthReportPage({ report, timeZone, teams }: HealthReportPageProps) {
  return (
    <div className="stack">
      <h1 className="report-print-title">Ops Hub health report</h1>
      <TeamChoice team={report.team} teams={teams} />
      <p className="muted">
        Generated {formatDateTime(report.generatedAt, timeZone)}; state changes since{' '}
        {formatDateTime(report.since, timeZone)} (the last report e-mail, or the last 24 hours). {scopeText(report)}
      </p>
      <div className="grid grid--3">
        <div className="stat-card">
          <span className="stat-card__label">Servers</span>
          <span className="stat-card__value">{report.total}</span>
        </div>
        {serverStatuses.map((s) => (
          <div className="stat-card" key={s}>
            <span className="stat-card__label">{s.charAt(0).toUpperCase() + s.slice(1)}</span>
            <span className="stat-card__value">{report.byStatus[s]}</span>
          </div>
        ))}
      </div>
      {reportSections(report, timeZone).map((section) => (
        <SectionCard key={section.id} section={section} />
      ))}
    </div>
  );
}
