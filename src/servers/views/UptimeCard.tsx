import { Badge, Card } from '../../ui/components';
import { PERIODS, type Uptime } from '../history/periods';

export interface UptimeCardProps {
  uptime: Uptime;
  /** The environment's 30-day target in percent (null: none set). */
  target: number | null;
  /** Admins get a link to edit the targets. */
  canEditTargets?: boolean;
}

const text = (pct: number | null) => (pct === null ? '—' : `${pct.toFixed(2)}%`);

/** The detail page's availability per period and how the 30 days compare with the environment's SLA target. */
export function UptimeCard({ uptime, target, canEditTargets }: UptimeCardProps) {
  const met = target === null || uptime['30d'] === null ? null : uptime['30d'] >= target;
  return (
    <Card title="Uptime" subtitle="Checks that found the server up, maintenance not counted" className="uptime-card">
      <dl className="kv">
        {PERIODS.map((p) => (
          <div key={p}>
            <dt>{p}</dt>
            <dd data-period={p}>{text(uptime[p])}</dd>
          </div>
        ))}
        <dt>SLA target (30d)</dt>
        <dd data-sla>
          {target === null ? 'none' : `${target}% `}
          {met === true && <Badge colour="green">met</Badge>}
          {met === false && <Badge colour="red">missed</Badge>}
          {canEditTargets && (
            <>
              {' '}
              <a href="/admin/sla-targets">Edit targets</a>
            </>
          )}
        </dd>
      </dl>
    </Card>
  );
}
