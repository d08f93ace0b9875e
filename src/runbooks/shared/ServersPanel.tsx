import { ServerStateList } from './ServerStateList';
import { SERVERS_PANEL_ID, type ServerSummary } from '../shared';

export interface ServersPanelProps {
  servers: ServerSummary[];
  timeZone: string;
  /** Where the panel's fresh HTML comes from (GET {item path}/servers-panel). */
  refreshUrl: string;
  /** How often an open, visible page asks it (configuration; SERVERS_PANEL_POLL_MS by default). */
  pollMs: number;
}

/**
 * "Servers": the live state of an item's linked servers, readable without JavaScript; src/client/reading.ts
 * refreshes it while the tab is visible. Nothing (and so no refresh) when no server is linked.
 */
export function ServersPanel({ servers, timeZone, refreshUrl, pollMs }: ServersPanelProps) {
  if (!servers.length) return null;
  return (
    <section
      id={SERVERS_PANEL_ID}
      className="doc__aside-part servers-panel"
      aria-labelledby={`${SERVERS_PANEL_ID}-title`}
      data-refresh-url={refreshUrl}
      data-poll-ms={pollMs}
    >
      <h2 className="doc__aside-title" id={`${SERVERS_PANEL_ID}-title`}>
        Servers
      </h2>
      <ServerStateList servers={servers} timeZone={timeZone} />
    </section>
  );
}
