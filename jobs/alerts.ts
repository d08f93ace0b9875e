import { runAlerts } from '../src/alerts/service';
import { defineJob } from './define-job';

/** Alerts of servers no longer offline closed, repeats, and the delivery queue (batched per rule and recipient). */
export const alertsJob = defineJob({
  name: 'alerts',
  title: 'Alert deliveries',
  schedule: (config) => config.schedules.alerts,
  async run({ db, config, logger, signal, now }) {
    const r = await runAlerts({ db, config, logger }, { now, signal });
    return `Queued ${r.repeats} repeats, closed ${r.closed}; sent ${r.sent} in ${r.messages} messages, will retry ${r.retried}, failed ${r.failed}.`;
  },
});
