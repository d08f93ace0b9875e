import { checkAllServers } from '../src/servers/health';
import { defineJob } from './define-job';

/** Probes every server not in maintenance, 20 at a time; status changes go to history and the audit log. */
export const healthChecksJob = defineJob({
  name: 'health-checks',
  title: 'Health checks',
  schedule: (config) => config.schedules.healthChecks,
  async run({ db }) {
    const r = await checkAllServers(db, { concurrency: 20 });
    return `Checked ${r.checked} servers in ${r.durationMs} ms: ${r.online} online, ${r.warning} warning, ${r.offline} offline.`;
  },
});
