import { Banner, Card, Field } from '../../ui/components';
import type { SlaMiss, SlaTargets } from '../history/sla';

export interface SlaTargetsPageProps {
  targets: SlaTargets;
  misses: SlaMiss[];
  error?: string;
  saved?: boolean;
}

const ENVIRONMENTS = ['production', 'staging', 'development'] as const;

/** /admin/sla-targets: each environment's 30-day availability target, and the servers below theirs. */
export function SlaTargetsPage({ targets, misses, error, saved }: SlaTargetsPageProps) {
  return (
    <div className="stack">
      {error && <Banner variant="error">{error}</Banner>}
      {saved && <Banner variant="success">SLA targets saved.</Banner>}
      <Card title="Targets" subtitle="Availability over 30 days, in percent; leave empty for no target">
        <form method="post" action="/admin/sla-targets" className="stack">
          {ENVIRONMENTS.map((e) => (
            <Field key={e} label={e} htmlFor={`sla-${e}`}>
              <input
                id={`sla-${e}`}
                name={e}
                className="input"
                type="number"
                min="0"
                max="100"
                step="0.001"
                defaultValue={targets[e] === null ? '' : String(targets[e])}
              />
            </Field>
          ))}
          <div className="row">
            <button type="submit" className="btn btn--primary">
              Save targets
            </button>
          </div>
        </form>
      </Card>
      <Card title="Missed" subtitle="Servers whose 30-day uptime is below their environment's target">
        {misses.length === 0 ? (
          <p className="muted">No server missed its target.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Server</th>
                  <th>Environment</th>
                  <th>30-day uptime</th>
                  <th>Target</th>
                </tr>
              </thead>
              <tbody>
                {misses.map((m) => (
                  <tr key={m.id}>
                    <td>
                      <a href={`/infrastructure/${m.id}`}>{m.name}</a>
                    </td>
                    <td>{m.environment}</td>
                    <td>{m.uptime30d}%</td>
                    <td>{m.target}%</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
