import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import cron, { type ScheduledTask } from 'node-cron';
import type { Config } from '../src/config';
import type { Database, Db } from '../src/db/client';
import type { Logger } from '../src/http/logger';
import {
  closeAbandonedRuns,
  closeStaleRuns,
  finishJobRun,
  hasRunSince,
  recordSkippedRun,
  runningSince,
  startJobRun,
} from '../src/jobs/service';
import type { JobDefinition } from './define-job';
import { withJobLock } from './lock';

export interface SchedulerDeps {
  database: Database;
  config: Config;
  logger: Logger;
  jobs: JobDefinition[];
}

export type RunOutcome =
  | { status: 'ok' | 'error'; message: string; runId: string }
  | { status: 'skipped'; message: string };

interface Running {
  session: Db;
  runId: string;
  startedAt: Date;
}

type Slot = { at: Date; toleranceMs: number };

const MAX_SLOT_TOLERANCE_MS = 30_000;

const DEFAULT_SHARED_LEASE_MS = 60_000;

/** How far apart two runs of a schedule are (0 for 'off'). */
function intervalMs(expression: string): number {
  if (!isScheduled(expression)) return 0;
  const task = cron.createTask(expression, () => {});
  try {
    const [a, b] = task.getNextRuns(2);
    return a && b ? b.getTime() - a.getTime() : 0;
  } finally {
    void task.destroy();
  }
}

/** A shared job's run still 'running' after this long is abandoned (README § The worker). */
export const sharedRunStaleMs = (job: JobDefinition, config: Config) =>
  3 * (job.leaseMs ?? DEFAULT_SHARED_LEASE_MS) + intervalMs(job.schedule(config));

/** True when the expression is a schedule (not 'off') node-cron accepts. */
export const isScheduled = (expression: string) => expression !== 'off' && cron.validate(expression);

/** The next time a cron expression fires from now (null for 'off' or an invalid expression). */
export function nextRunAt(expression: string): Date | null {
  if (!isScheduled(expression)) return null;
  const task = cron.createTask(expression, () => {});
  try {
    return task.getNextRuns(1)[0] ?? null;
  } finally {
    void task.destroy();
  }
}

/** Runs jobs on their cron schedules, each run under its advisory lock and recorded in job_runs. */
export function createScheduler(deps: SchedulerDeps) {
  const { database, config, logger } = deps;
  const controller = new AbortController();
  const tasks = new Map<string, ScheduledTask>();
  const inFlight = new Set<Promise<RunOutcome>>();
  const running = new Map<string, Running>();

  // This scheduler among the workers (host, process, and a suffix: two schedulers in one test process differ).
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  /** Runs the job and records the run (on `session`: the lock's connection, or the pool for shared jobs). */
  async function record(job: JobDefinition, session: Db, slot: Slot | undefined): Promise<RunOutcome> {
    const runId = await startJobRun(session, job.name);
    running.set(job.name, { session, runId, startedAt: new Date() });
    try {
      const message = await job.run({
        db: database.db,
        database,
        config,
        logger: logger.child({ job: job.name }),
        signal: controller.signal,
        now: slot?.at ?? new Date(),
        scheduled: !!slot,
        workerId,
      });
      await finishJobRun(session, runId, 'ok', message);
      return { status: 'ok', message, runId } as const;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      logger.error({ err, job: job.name }, 'job failed');
      await finishJobRun(session, runId, 'error', message).catch(() => {});
      return { status: 'error', message, runId } as const;
    } finally {
      running.delete(job.name);
    }
  }

  /** A tick that found the previous run still going: a 'skipped' run on /admin/jobs and a warning in the log. */
  async function skipTick(job: JobDefinition, since: Date): Promise<RunOutcome> {
    const message = `Skipped: the previous run (started ${since.toISOString()}) was still running.`;
    logger.warn({ job: job.name, since }, 'job tick skipped: the previous run is still running');
    await recordSkippedRun(database.db, job.name, message);
    return { status: 'skipped', message };
  }

  async function execute(job: JobDefinition, slot?: Slot): Promise<RunOutcome> {
    const here = running.get(job.name);
    if (here)
      return slot ? skipTick(job, here.startedAt) : { status: 'skipped', message: 'The job is already running.' };
    if (job.shared) {
      await closeStaleRuns(database.db, job.name, sharedRunStaleMs(job, config));
      return record(job, database.db, slot);
    }
    const outcome = await withJobLock(database, job.name, async (session) => {
      if (slot && (await hasRunSince(session, job.name, new Date(slot.at.getTime() - slot.toleranceMs)))) {
        return { status: 'skipped', message: 'Another worker already ran this slot.' } as const;
      }
      await closeAbandonedRuns(session, job.name);
      return record(job, session, slot);
    });
    if (outcome.acquired) return outcome.value;
    // Held by another worker: a run of an earlier slot still going is a skip to report; this slot's run is normal.
    const earlier = slot && (await runningSince(database.db, job.name, new Date(slot.at.getTime() - slot.toleranceMs)));
    if (earlier) return skipTick(job, earlier);
    return { status: 'skipped', message: 'The job is already running.' };
  }

  function track(promise: Promise<RunOutcome>): Promise<RunOutcome> {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => {});
    return promise;
  }

  function find(name: string): JobDefinition {
    const job = deps.jobs.find((j) => j.name === name);
    if (!job) throw new Error(`Unknown job: ${name}`);
    return job;
  }

  function onTick(job: JobDefinition, task: ScheduledTask, firedAt: Date): Promise<RunOutcome> {
    const at = new Date(Math.floor(firedAt.getTime() / 1000) * 1000);
    const next = task.getNextRuns(1)[0];
    const toleranceMs = Math.min(MAX_SLOT_TOLERANCE_MS, next ? Math.max(0, (next.getTime() - at.getTime()) / 2) : 0);
    return track(
      execute(job, { at, toleranceMs }).then((outcome) => {
        logger[outcome.status === 'error' ? 'warn' : 'debug']({ job: job.name, ...outcome }, `job ${outcome.status}`);
        return outcome;
      }),
    ).catch((err) => {
      logger.error({ err, job: job.name }, 'job run could not be recorded');
      return { status: 'skipped', message: 'The run could not be recorded.' } as const;
    });
  }

  return {
    /** Starts every job whose schedule is not 'off'; returns the scheduled names. */
    start(): string[] {
      for (const job of deps.jobs) {
        const expression = job.schedule(config);
        if (!isScheduled(expression)) continue;
        const task = cron.createTask(expression, (ctx) => onTick(job, task, ctx.date ?? new Date()), {
          // Overlaps are ours to see: a tick during a running run is recorded as skipped (execute).
          name: `opshub:${job.name}`,
        });
        tasks.set(job.name, task);
        void task.start();
      }
      return [...tasks.keys()];
    },

    /** Runs one job now (under its lock); 'skipped' when it is already running somewhere. */
    runNow(name: string): Promise<RunOutcome> {
      if (controller.signal.aborted) return Promise.resolve({ status: 'skipped', message: 'Shutting down.' });
      return track(execute(find(name)));
    },

    /**
     * Stops scheduling, signals running jobs, waits up to timeoutMs for them to finish; runs still going
     * then are recorded as abandoned (closing the database afterwards rolls back their open transactions).
     */
    async stop(timeoutMs = 10_000): Promise<{ abandoned: string[] }> {
      for (const task of tasks.values()) await task.destroy();
      tasks.clear();
      controller.abort();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const settled = await Promise.race([Promise.allSettled([...inFlight]).then(() => 'done' as const), timedOut]);
      clearTimeout(timer);
      if (settled === 'done') return { abandoned: [] };
      const abandoned = [...running.entries()];
      await Promise.all(
        abandoned.map(([, r]) =>
          finishJobRun(r.session, r.runId, 'error', 'Abandoned at shutdown: the run did not finish in time.').catch(
            () => {},
          ),
        ),
      );
      return { abandoned: abandoned.map(([name]) => name) };
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;

const pad = (n: string) => n.padStart(2, '0');

/** Common cron shapes in words ("Every 5 minutes", "Daily at 07:00"); null when it is something else. */
export function describeSchedule(expression: string): string | null {
  const f = expression.trim().split(/\s+/);
  if (f.length !== 5 || f.slice(2).some((x) => x !== '*')) return null;
  const [m, h] = f;
  if (m === '*' && h === '*') return 'Every minute';
  const every = /^\*\/(\d+)$/.exec(m);
  if (every && h === '*') return `Every ${every[1]} minutes`;
  if (/^\d+$/.test(m) && h === '*') return `Hourly at :${pad(m)}`;
  if (/^\d+$/.test(m) && /^\d+$/.test(h)) return `Daily at ${pad(h)}:${pad(m)}`;
  return null;
}
