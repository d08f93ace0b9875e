import { notifyServerChanges } from '../src/notifications/service';
import { checkAllServers } from '../src/servers/health';
import { defineJob } from './define-job';

/**
 * Probes every server not in maintenance, 20 at a time; status changes go to history and the audit log, and
 * servers that went offline or came back are e-mailed and pushed to the users who want to know.
 */
export const healthChecksJob = defineJob({
  name: 'health-checks',
  title: 'Health checks',
  schedule: (config) => config.schedules.healthChecks,
  async run({ db, config, logger }) {
    const r = await checkAllServers(db, { concurrency: 20 });
    const summary = `Checked ${r.checked} servers in ${r.durationMs} ms: ${r.online} online, ${r.warning} warning, ${r.offline} offline.`;
    if (!r.changes.length) return summary;
    const sent = await notifyServerChanges({ db, config, logger }, r.changes);
    const pushed = config.push ? `, pushed to ${sent.pushes} browsers` : '';
    return `${summary} ${r.changes.length} went offline or came back: e-mailed ${sent.emails} users${pushed}.`;
  },
});
