import { allJobs } from '../../jobs/index';
import { createScheduler, type RunOutcome, type Scheduler } from '../../jobs/scheduler';
import type { AppDeps } from '../app-env';
import { recordAudit } from '../audit/service';

const runners = new WeakMap<AppDeps, Scheduler>();
/** "Run now" waits this long for the result before answering "still running". */
const WAIT_MS = 20_000;

/**
 * Runs one job now from the web process, under the same advisory lock as the scheduler; waits up to 20 s. The
 * request is in the audit trail (`job.run`) before the run starts, whatever its outcome.
 */
export async function runJobNow(
  deps: AppDeps,
  name: string,
  actorId: string,
): Promise<RunOutcome | { status: 'running'; message: string }> {
  await recordAudit(deps.db, { actorId, action: 'job.run', entityType: 'job', entityId: name });
  let runner = runners.get(deps);
  if (!runner) {
    runner = createScheduler({ database: deps.database, config: deps.config, logger: deps.logger, jobs: allJobs });
    runners.set(deps, runner);
  }
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<{ status: 'running'; message: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 'running', message: 'Still running; refresh the page for the result.' }),
      WAIT_MS,
    );
  });
  try {
    return await Promise.race([runner.runNow(name), waited]);
  } finally {
    clearTimeout(timer);
  }
}
