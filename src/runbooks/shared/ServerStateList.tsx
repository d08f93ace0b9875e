import { lastCheckText, uptimeText, usageText } from '../../servers/shared';
import { environmentColour, formatDateTime, statusColour } from '../../ui/shared';
import type { ServerSummary } from '../shared';

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
            <div>
              <dt>CPU</dt>
              <dd>{usageText(s, s.cpuUsage)}</dd>
            </div>
            <div>
              <dt>Memory</dt>
              <dd>{usageText(s, s.memoryUsage)}</dd>
            </div>
            <div>
              <dt>Disk</dt>
              <dd>{usageText(s, s.diskUsage)}</dd>
            </div>
            <div>
              <dt>Uptime</dt>
              <dd>{uptimeText(s)}</dd>
            </div>
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
