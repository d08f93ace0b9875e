import { checkAll } from '../src/servers/commands';
import { ROUND_LEASE_MS, slotOf } from '../src/servers/round';
import { defineJob } from './define-job';

/**
 * Every worker's share of the round (shared: each worker runs it and claims batches of due servers; a server is
 * probed once per round, HEALTH_CHECK_CONCURRENCY at a time per worker). Status changes go to history and the
 * audit log; servers that went offline or came back are e-mailed and pushed to the users who want to know. At
 * shutdown the share stops starting probes, releases what it claimed and announces what it found; changes a
 * killed worker stored are announced by the next round, and its claims are taken over when their lease ends by
 * a live worker's share, which waits for them before it ends. A share that finds a newer round joins it; "Run
 * now" joins the round under way instead of starting another.
 */
export const healthChecksJob = defineJob({
  name: 'health-checks',
  title: 'Health checks',
  shared: true,
  leaseMs: ROUND_LEASE_MS,
  schedule: (config) => config.schedules.healthChecks,
  async run({ db, config, logger, signal, now, scheduled, workerId }) {
    // "Run now" joins the round still running (if any) instead of starting another full one.
    const slotAt = scheduled ? slotOf(now) : undefined;
    const r = await checkAll({ db, config, logger }, { signal, slotAt, workerId });
    const failing = r.failing ? `, ${r.failing} failing (not offline yet)` : '';
    let summary = `Checked ${r.checked} servers in ${r.durationMs} ms: ${r.online} online, ${r.warning} warning, ${r.offline} offline${failing}.`;
    if (r.joined || r.joinedNewer)
      summary += ` Took part in the round of ${r.slotAt.toISOString()} (started before this run; others share it).`;
    if (r.errors) summary += ` ${r.errors} servers could not be stored (left for the next round): ${r.firstError}`;
    if (r.stillClaimed)
      summary += ` Skipped ${r.stillClaimed} servers still claimed by the previous round (it was still running).`;
    if (r.left) summary += ` Stopped by shutdown: ${r.left} left for another worker or the next round.`;
    const a = r.announced;
    if (!a.changes) return summary;
    const pushed = config.push ? `, pushed to ${a.pushes} browsers` : '';
    return `${summary} ${a.changes} went offline or came back: e-mailed ${a.emails} users${pushed}.`;
  },
});
