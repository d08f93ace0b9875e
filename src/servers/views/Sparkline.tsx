import type { HealthCheckEntry } from '../service';

const COLOURS: Record<string, string> = {
  online: 'var(--green)',
  warning: 'var(--yellow)',
  offline: 'var(--red)',
  maintenance: 'var(--blue)',
};

/** Inline SVG: latency as a line, each check's status as a coloured dot (oldest left). */
export function Sparkline({ checks }: { checks: HealthCheckEntry[] }) {
  const points = [...checks].reverse();
  if (points.length === 0) return null;
  const W = 200;
  const H = 40;
  const max = Math.max(1, ...points.map((p) => p.latencyMs ?? 0));
  const x = (i: number) => (points.length === 1 ? W / 2 : 4 + (i * (W - 8)) / (points.length - 1));
  const y = (ms: number | null) => (ms === null ? H - 4 : H - 8 - (ms / max) * (H - 14));
  const line = points
    .map((p, i) => (p.latencyMs === null ? null : `${x(i).toFixed(1)},${y(p.latencyMs).toFixed(1)}`))
    .filter(Boolean)
    .join(' ');
  const up = points.filter((p) => p.status !== 'offline').length;
  return (
    <svg
      className="server-sparkline"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Last ${points.length} checks: ${up} reachable, latency up to ${max} ms`}
    >
      {line && <polyline points={line} fill="none" stroke="currentColor" strokeWidth="1.5" />}
      {points.map((p, i) => (
        <circle key={p.id} cx={x(i)} cy={y(p.latencyMs)} r="2.5" fill={COLOURS[p.status] ?? 'var(--grey)'}>
          <title>{`${p.checkedAt}: ${p.status}${p.latencyMs === null ? '' : `, ${p.latencyMs} ms`}`}</title>
        </circle>
      ))}
    </svg>
  );
}
