import { Badge, Card, EmptyState } from '../../ui/components';
import { type BadgeColour, formatDateTime } from '../../ui/shared';
import type { CheckBoardEntry, CheckResult } from '../checks';
import { checkLabel, type ServerCheck } from '../schemas';

export interface ServerChecksProps {
  board: CheckBoardEntry[];
  timeZone: string;
  /** Admins see the raw socket/TLS error beside the plain reason. */
  showDetail: boolean;
}

const BADGE: Record<CheckResult['status'], BadgeColour> = { ok: 'green', warning: 'yellow', failing: 'red' };

/** What the check expects besides answering: "status 204, body contains “ok”", "warn under 30 days". */
function expectations(c: ServerCheck): string {
  const parts = [
    c.expectStatus !== null ? `status ${c.expectStatus}` : null,
    c.expectText !== null ? `body contains “${c.expectText}”` : null,
    c.warnDays !== null ? `warning under ${c.warnDays} days` : null,
  ];
  return parts.filter(Boolean).join(', ');
}

function resultTitle(r: CheckResult, timeZone: string): string {
  const latency = r.latencyMs === null ? '' : `, ${r.latencyMs} ms`;
  return `${formatDateTime(r.checkedAt, timeZone)}: ${r.status}${latency}${r.error ? ` (${r.error})` : ''}`;
}

function LastResult({
  entry,
  timeZone,
  showDetail,
}: {
  entry: CheckBoardEntry;
  timeZone: string;
  showDetail: boolean;
}) {
  const r = entry.last;
  if (!r) return <p className="muted small">Not checked yet.</p>;
  return (
    <div className="stack" style={{ gap: '0.25rem' }}>
      <div className="row" style={{ flexWrap: 'wrap', gap: '0.5rem' }}>
        <Badge colour={BADGE[r.status]}>{r.status}</Badge>
        <span className="small">{r.latencyMs === null ? '—' : `${r.latencyMs} ms`}</span>
        <span className="muted small">{formatDateTime(r.checkedAt, timeZone)}</span>
      </div>
      {r.error && <p className="small check-error">{r.error}</p>}
      {showDetail && r.detail && <code className="small check-detail">{r.detail}</code>}
    </div>
  );
}

/** The recent results as small marks, oldest left; each mark's title says when, what and why. */
function History({ results, timeZone }: { results: CheckResult[]; timeZone: string }) {
  if (results.length < 2) return null;
  const counts = { ok: 0, warning: 0, failing: 0 };
  for (const r of results) counts[r.status]++;
  return (
    <div
      className="check-history"
      role="img"
      aria-label={`Last ${results.length} results: ${counts.ok} ok, ${counts.warning} warning, ${counts.failing} failing`}
    >
      {[...results].reverse().map((r, i) => (
        <span
          key={`${r.checkedAt}-${i}`}
          className={`check-mark check-mark--${r.status}`}
          title={resultTitle(r, timeZone)}
        />
      ))}
    </div>
  );
}

function CheckItem({ entry, ...rest }: { entry: CheckBoardEntry; timeZone: string; showDetail: boolean }) {
  const c = entry.check;
  const expects = expectations(c);
  return (
    <li className="check-item stack" data-check-id={c.id ?? 'implicit'}>
      <div>
        <strong className="check-item__label">{checkLabel(c)}</strong>
        {c.id === null && <span className="muted small"> (implicit: the monitor port)</span>}
        {expects && <p className="muted small">{`Expects ${expects}`}</p>}
      </div>
      <LastResult entry={entry} {...rest} />
      <History results={entry.history} timeZone={rest.timeZone} />
    </li>
  );
}

/** The detail page's Checks card: each check, its last result and its recent history. */
export function ServerChecks({ board, timeZone, showDetail }: ServerChecksProps) {
  return (
    <Card title="Checks" subtitle="Each check's last result and its recent history" id="checks">
      {board.length === 0 ? (
        <EmptyState icon="activity" title="No checks" text="Give the server an IP address or hostname to check it." />
      ) : (
        <ul className="check-list stack">
          {board.map((entry) => (
            <CheckItem key={entry.check.id ?? 'implicit'} entry={entry} timeZone={timeZone} showDetail={showDetail} />
          ))}
        </ul>
      )}
    </Card>
  );
}
