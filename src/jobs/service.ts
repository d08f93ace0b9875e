import { and, desc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns, mailOutbox } from '../db/schema';

export type JobRun = typeof jobRuns.$inferSelect;
export type FinishedResult = 'ok' | 'error';

const MESSAGE_LIMIT = 2000;

/** Records the start of a run; returns its id. */
export async function startJobRun(db: Db, job: string): Promise<string> {
  const [row] = await db.insert(jobRuns).values({ job, result: 'running' }).returning({ id: jobRuns.id });
  return row.id;
}

/** Records how a run ended: result, duration (measured by the database clock) and a one-line message. */
export async function finishJobRun(db: Db, id: string, result: FinishedResult, message: string): Promise<void> {
  await db
    .update(jobRuns)
    .set({
      result,
      message: message.slice(0, MESSAGE_LIMIT),
      finishedAt: sql`now()`,
      durationMs: sql`greatest(0, round(extract(epoch from (clock_timestamp() - ${jobRuns.startedAt})) * 1000))::int`,
    })
    .where(eq(jobRuns.id, id));
}

/** Records a tick that did not run (the previous run still going): a 'skipped' run with its reason. */
export async function recordSkippedRun(db: Db, job: string, message: string): Promise<void> {
  await db.insert(jobRuns).values({
    job,
    result: 'skipped',
    message: message.slice(0, MESSAGE_LIMIT),
    finishedAt: sql`now()`,
    durationMs: 0,
  });
}

/** The newest run of this job still marked running that started before `before` (a previous slot's run). */
export async function runningSince(db: Db, job: string, before: Date): Promise<Date | null> {
  const [row] = await db
    .select({ startedAt: jobRuns.startedAt })
    .from(jobRuns)
    .where(and(eq(jobRuns.job, job), eq(jobRuns.result, 'running'), lt(jobRuns.startedAt, before)))
    .orderBy(desc(jobRuns.startedAt))
    .limit(1);
  return row?.startedAt ?? null;
}

/** True when a run of this job (not skipped) started at or after `since`: a slot another worker already took. */
export async function hasRunSince(db: Db, job: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: jobRuns.id })
    .from(jobRuns)
    .where(and(eq(jobRuns.job, job), gte(jobRuns.startedAt, since), ne(jobRuns.result, 'skipped')))
    .limit(1);
  return !!row;
}

/** The newest run of each named job (running ones included), skipped ticks apart (`skipped`: only those). */
export async function latestRuns(db: Db, jobs: string[], skipped = false): Promise<Map<string, JobRun>> {
  if (jobs.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([jobRuns.job])
    .from(jobRuns)
    .where(and(inArray(jobRuns.job, jobs), skipped ? eq(jobRuns.result, 'skipped') : ne(jobRuns.result, 'skipped')))
    .orderBy(jobRuns.job, desc(jobRuns.startedAt));
  return new Map(rows.map((r) => [r.job, r]));
}

/** When the last successful run of a job started (null when it never succeeded). */
export async function lastSuccessfulRunStart(db: Db, job: string): Promise<Date | null> {
  const [row] = await db
    .select({ startedAt: jobRuns.startedAt })
    .from(jobRuns)
    .where(and(eq(jobRuns.job, job), eq(jobRuns.result, 'ok')))
    .orderBy(desc(jobRuns.startedAt))
    .limit(1);
  return row?.startedAt ?? null;
}

/** Marks runs left 'running' by a crashed worker as errors (called while holding the job's lock, so none is live). */
export async function closeAbandonedRuns(db: Db, job: string): Promise<void> {
  await db
    .update(jobRuns)
    .set({ result: 'error', message: 'Abandoned: the worker stopped before the run finished.', finishedAt: sql`now()` })
    .where(and(eq(jobRuns.job, job), eq(jobRuns.result, 'running')));
}

/**
 * Marks runs of a shared job (no lock tells whether a worker still runs them) left 'running' for longer than
 * `olderThanMs` as errors: their worker was killed. Any worker's next run does it.
 */
export async function closeStaleRuns(db: Db, job: string, olderThanMs: number): Promise<number> {
  const closed = await db
    .update(jobRuns)
    .set({
      result: 'error',
      message: 'Abandoned: the worker stopped before the run finished (no result after the longest a run takes).',
      finishedAt: sql`now()`,
    })
    .where(
      and(
        eq(jobRuns.job, job),
        eq(jobRuns.result, 'running'),
        sql`${jobRuns.startedAt} < now() - make_interval(secs => ${olderThanMs / 1000})`,
      ),
    )
    .returning({ id: jobRuns.id });
  return closed.length;
}

export interface FailedMail {
  id: string;
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
}

/** Outbox messages that gave up after their last attempt, newest first (read-only, for /admin/jobs). */
export function failedMail(db: Db, limit = 20): Promise<FailedMail[]> {
  return db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'failed'))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(limit);
}
