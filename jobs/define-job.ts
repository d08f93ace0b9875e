import type { Config } from '../src/config';
import type { Database, Db } from '../src/db/client';
import type { Logger } from '../src/http/logger';

/** What a job's run() receives. */
export interface JobContext {
  db: Db;
  database: Database;
  config: Config;
  logger: Logger;
  /** Aborted when the process is shutting down: long jobs stop between steps. */
  signal: AbortSignal;
  /** When the run started (the scheduled slot for cron runs). */
  now: Date;
  /** True for a cron tick (now is its slot), false for "Run now". */
  scheduled?: boolean;
  /** This scheduler's name among the workers (claimed_by of a shared round). */
  workerId?: string;
}

export interface JobDefinition {
  /** Stable name: job_runs.job, the advisory-lock key and the /admin/jobs row. */
  name: string;
  /** Human title for /admin/jobs. */
  title: string;
  /** The cron expression from configuration, or 'off'. */
  schedule: (config: Config) => string;
  /**
   * Every worker takes part in each run (no advisory lock, no "another worker ran this slot" skip): the job
   * shares its work out itself (health-checks: claims with a lease). Each worker records its own run.
   */
  shared?: boolean;
  /**
   * A shared job's claim lease. A run of it still 'running' after 3 leases plus the schedule's interval is taken
   * for abandoned (its worker killed) and closed by the next run of any worker (default lease: one minute).
   */
  leaseMs?: number;
  /** Does the work; returns a one-line summary stored with the run. */
  run: (ctx: JobContext) => Promise<string>;
}

/** Declares a job: a name, where its schedule comes from, and what it does. */
export function defineJob(job: JobDefinition): JobDefinition {
  if (!/^[a-z][a-z0-9-]{1,48}$/.test(job.name)) throw new Error(`Invalid job name: ${job.name}`);
  return job;
}
