import { allJobs } from '../../jobs/index';
import { isScheduled, nextRunAt } from '../../jobs/scheduler';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { scheduleTextIn } from './schedule-text';
import { latestRuns, type JobRun } from './service';

export type JobsMode = 'inline' | 'worker' | 'off';

export interface JobRow {
  name: string;
  title: string;
  schedule: string;
  /** The schedule in words in the reader's timezone, when it has a common shape. */
  scheduleText: string | null;
  enabled: boolean;
  lastRun: JobRun | null;
  /** The newest tick skipped because the previous run was still going, when newer than lastRun's start. */
  lastSkipped: JobRun | null;
  nextRun: Date | null;
}

/** Where scheduled runs happen: inside this web process, in `npm run worker` processes, or nowhere. */
export function jobsMode(config: Config): JobsMode {
  if (config.jobs === 'inline') return 'inline';
  return config.databaseUrl ? 'worker' : 'off';
}

/**
 * Every job with its schedule (in words in `timeZone`, the reader's), newest run and next run time (none when
 * disabled or JOBS=off on PGlite).
 */
export async function jobsOverview(db: Db, config: Config, timeZone: string): Promise<JobRow[]> {
  const names = allJobs.map((j) => j.name);
  const [runs, skips] = await Promise.all([latestRuns(db, names), latestRuns(db, names, true)]);
  const mode = jobsMode(config);
  return allJobs.map((job) => {
    const schedule = job.schedule(config);
    const enabled = isScheduled(schedule);
    const next = enabled ? nextRunAt(schedule) : null;
    return {
      name: job.name,
      title: job.title,
      schedule,
      scheduleText: enabled ? scheduleTextIn(schedule, next, timeZone) : null,
      enabled,
      lastRun: runs.get(job.name) ?? null,
      lastSkipped: newerSkip(skips.get(job.name), runs.get(job.name)),
      nextRun: mode !== 'off' ? next : null,
    };
  });
}

const newerSkip = (skip: JobRun | undefined, run: JobRun | undefined) =>
  skip && (!run || skip.startedAt > run.startedAt) ? skip : null;

/** The title of a job by name. */
export const jobTitle = (name: string) => allJobs.find((j) => j.name === name)?.title ?? name;

/** The names "run now" accepts. */
export const jobNames = allJobs.map((j) => j.name) as [string, ...string[]];
