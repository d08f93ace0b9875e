import { index, integer, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { id } from './common';

export const jobResults = ['running', 'ok', 'error', 'skipped'] as const;

/** One row per job run, for /admin/jobs and the health report's "since the last report". */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: id(),
    job: varchar('job', { length: 50 }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    result: varchar('result', { length: 10, enum: jobResults }).notNull().default('running'),
    message: text('message'),
  },
  (t) => [index('job_runs_job_started_idx').on(t.job, t.startedAt)],
);
