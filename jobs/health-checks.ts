import { checkAll } from '../src/servers/commands';
import { defineJob } from './define-job';

/**
 * Probes every server not in maintenance, 20 at a time; status changes go to history and the audit log, and
 * servers that went offline or came back are e-mailed and pushed to the users who want to know. At shutdown
 * the round stops starting probes and announces what it found; changes a killed round stored are announced
 * by the next one.
 */
export const healthChecksJob = defineJob({
  name: 'health-checks',
  title: 'Health checks',
  schedule: (config) => config.schedules.healthChecks,
  async run({ db, config, logger, signal }) {
    const r = await checkAll({ db, config, logger }, { signal });
    let summary = `Checked ${r.checked} servers in ${r.durationMs} ms: ${r.online} online, ${r.warning} warning, ${r.offline} offline.`;
    if (r.skipped) summary += ` Stopped by shutdown: ${r.skipped} left for the next round.`;
    const a = r.announced;
    if (!a.changes) return summary;
    const pushed = config.push ? `, pushed to ${a.pushes} browsers` : '';
    return `${summary} ${a.changes} went offline or came back: e-mailed ${a.emails} users${pushed}.`;
  },
});
