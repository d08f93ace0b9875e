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
}

export interface JobDefinition {
  /** Stable name: job_runs.job, the advisory-lock key and the /admin/jobs row. */
  name: string;
  /** Human title for /admin/jobs. */
  title: string;
  /** The cron expression from configuration, or 'off'. */
  schedule: (config: Config) => string;
  /** Does the work; returns a one-line summary stored with the run. */
  run: (ctx: JobContext) => Promise<string>;
}

/** Declares a job: a name, where its schedule comes from, and what it does. */
export function defineJob(job: JobDefinition): JobDefinition {
  if (!/^[a-z][a-z0-9-]{1,48}$/.test(job.name)) throw new Error(`Invalid job name: ${job.name}`);
  return job;
}
