import { formatNumber as fmt } from '../../ui/shared';
import type { DashboardStats } from '../service';

function StatCard({ label, value, sub }: { label: string; value: string; sub: string }) {
  return (
    <div className="stat-card">
      <span className="stat-card__label">{label}</span>
      <span className="stat-card__value">{value}</span>
      <span className="stat-card__sub">{sub}</span>
    </div>
  );
}

/** Up as a share of checked, one decimal; never 100% while one is down, nor 0% while one is up. */
function percent(up: number, checked: number): string {
  if (up === checked) return '100%';
  if (up === 0) return '0%';
  return `${Math.min(99.9, Math.max(0.1, Math.round((up / checked) * 1000) / 10))}%`;
}

/**
 * Servers up (online or warning) as a share of those the health checks reached a verdict on: never-checked
 * servers (unknown) and servers in maintenance (not checked) are left out. The subtext names what is not well.
 */
export function uptimeFigures(s: DashboardStats['servers']): { value: string; sub: string } {
  if (s.total === 0) return { value: 'N/A', sub: 'No servers configured' };
  const up = s.online + s.warning;
  const checked = up + s.offline;
  if (checked === 0) return { value: 'N/A', sub: 'No health checks yet' };
  const problems = [s.offline && `${fmt(s.offline)} offline`, s.warning && `${fmt(s.warning)} warning`]
    .filter(Boolean)
    .join(', ');
  return { value: percent(up, checked), sub: problems || 'All systems operational' };
}

/** The four stat cards with the spec's labels and real figures. */
export function StatCards({ stats, oob }: { stats: DashboardStats; oob?: boolean }) {
  const uptime = uptimeFigures(stats.servers);
  return (
    <section id="dash-stats" className="grid grid--4" aria-label="Statistics" hx-swap-oob={oob ? 'true' : undefined}>
      <StatCard
        label="Total Servers"
        value={fmt(stats.servers.total)}
        sub={`+${fmt(stats.servers.thisMonth)} this month`}
      />
      <StatCard
        label="Documents"
        value={fmt(stats.documents.total)}
        sub={`+${fmt(stats.documents.thisWeek)} this week`}
      />
      <StatCard label="Uptime" value={uptime.value} sub={uptime.sub} />
      <StatCard label="AI Suggestions" value={fmt(stats.ai.total)} sub={`+${fmt(stats.ai.today)} today`} />
    </section>
  );
}
