import { formatNumber as fmt } from '../../ui/format';
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

/** Servers online as a share of all servers, from the latest health checks. */
export function uptimeFigures(s: DashboardStats['servers']): { value: string; sub: string } {
  if (s.total === 0) return { value: 'N/A', sub: 'No servers configured' };
  const pct = Math.round((s.online / s.total) * 1000) / 10;
  const problems = [s.offline && `${fmt(s.offline)} offline`, s.warning && `${fmt(s.warning)} warning`].filter(Boolean).join(', ');
  return { value: `${pct}%`, sub: problems || 'All systems operational' };
}

/** The four stat cards with the spec's labels and real figures. */
export function StatCards({ stats, oob }: { stats: DashboardStats; oob?: boolean }) {
  const uptime = uptimeFigures(stats.servers);
  return (
    <div id="dash-stats" className="grid grid--4" aria-label="Statistics" hx-swap-oob={oob ? 'true' : undefined}>
      <StatCard label="Total Servers" value={fmt(stats.servers.total)} sub={`+${fmt(stats.servers.thisMonth)} this month`} />
      <StatCard label="Documents" value={fmt(stats.documents.total)} sub={`+${fmt(stats.documents.thisWeek)} this week`} />
      <StatCard label="Uptime" value={uptime.value} sub={uptime.sub} />
      <StatCard label="AI Suggestions" value={fmt(stats.ai.total)} sub={`+${fmt(stats.ai.today)} today`} />
    </div>
  );
}
