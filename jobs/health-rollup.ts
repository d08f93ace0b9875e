import { pruneHealthHistory } from '../src/servers/history/prune';
import { rollUpHealth } from '../src/servers/history/rollup';
import { refreshServerUptime } from '../src/servers/history/uptime';
import { defineJob } from './define-job';

/**
 * Rolls raw health checks up into hourly and daily summaries, refreshes every server's uptime, then prunes raw
 * checks older than HEALTH_HISTORY_DAYS and rollups older than HEALTH_ROLLUP_DAYS in small batches.
 */
export const healthRollupJob = defineJob({
  name: 'health-rollup',
  title: 'Health history rollup and retention',
  schedule: (config) => config.schedules.healthRollup,
  async run({ db, config, now, signal }) {
    const rolled = await rollUpHealth(db, { now, signal });
    const servers = await refreshServerUptime(db, now);
    const pruned = await pruneHealthHistory(db, {
      now,
      historyDays: config.health.historyDays,
      rollupDays: config.health.rollupDays,
      signal,
    });
    return (
      `Rolled up ${rolled.hours} server-hours and ${rolled.days} server-days; uptime of ${servers} servers. ` +
      `Pruned ${pruned.raw} raw checks, ${pruned.rounds} rounds, ${pruned.rollups} hourly and ${pruned.daily} daily rollups.`
    );
  },
});
