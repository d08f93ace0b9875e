import { lastCheckText, uptimeText, usageText } from '../../servers/shared';
import { environmentColour, formatDateTime, statusColour } from '../../ui/shared';
import type { ServerSummary } from '../shared';

/** CPU, memory, disk ("42%") and uptime ("3d 4h"); "—" for each when no agent ever pushed metrics. */
const usage = (s: ServerSummary): [string, string][] => [
  ['CPU', usageText(s, s.cpuUsage)],
  ['Memory', usageText(s, s.memoryUsage)],
  ['Disk', usageText(s, s.diskUsage)],
  ['Uptime', uptimeText(s)],
];

/**
 * Linked servers with their live state: name (to the server's page), status, environment, CPU/memory/disk, uptime
 * and last check in the reader's timezone. Data in, markup out, no server code: the read page's Servers panel renders
 * it on the server and the category view's preview (an island) in the browser.
 */
export function ServerStateList({ servers, timeZone }: { servers: ServerSummary[]; timeZone: string }) {
  return (
    <ul className="servers-panel__list">
      {servers.map((s) => (
        <li key={s.id} className="servers-panel__server">
          <p className="servers-panel__name">
            <a href={`/infrastructure/${s.id}`}>{s.name}</a>{' '}
            <span className={`badge badge--${statusColour(s.status)}`}>{s.status}</span>{' '}
            <span className={`badge badge--outline badge--${environmentColour(s.environment)}`}>{s.environment}</span>
          </p>
          <dl className="servers-panel__facts">
            {usage(s).map(([label, text]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{text}</dd>
              </div>
            ))}
            <div className="servers-panel__check">
              <dt>Last check</dt>
              <dd>
                {s.lastHealthCheck ? (
                  <time dateTime={s.lastHealthCheck}>{lastCheckText(s, (iso) => formatDateTime(iso, timeZone))}</time>
                ) : (
                  lastCheckText(s, () => '')
                )}
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
