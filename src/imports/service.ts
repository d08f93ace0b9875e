import { and, desc, eq, inArray, lt, ne, or, sql } from 'drizzle-orm';
import { authorize, type Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { importJobs, type ImportReportEntry } from '../db/schema';
import type { ImportJobStatus } from '../db/schema/values';
import { AppError, forbidden, notFound } from '../http/errors';
import type { Logger } from '../http/logger';
import { enforce } from '../http/rate-limit';
import { isUuid } from '../knowledge/service';
import type { Space } from '../knowledge/shared';
import { IMPORT_RATE, LIMITS } from './limits';
import { planImport } from './plan';
import { finishJob, runImportJob } from './run';
import { archiveOf, type UploadedFile } from './upload';

/**
 * Import of Markdown files and zips (issue 25): the dry run, the job that imports for real (its upload kept in
 * import_jobs until it has run), the preview a page confirms, the report, and the sweep that resumes abandoned jobs.
 */

export type { UploadedFile } from './upload';
export { LIMITS, megabytes } from './limits';

export interface ImportJobView {
  id: string;
  space: Space;
  status: ImportJobStatus;
  done: number;
  total: number;
  created: number;
  skipped: number;
  errors: number;
  items: ImportReportEntry[];
  createdAt: Date;
  finishedAt: Date | null;
}

/** Counts one upload against the user's hourly allowance (429 with Retry-After past it), before its body is read. */
export async function countImport(db: Db, userId: string): Promise<void> {
  await enforce(
    db,
    [{ key: `import:user:${userId}`, ...IMPORT_RATE }],
    `At most ${IMPORT_RATE.limit} imports an hour; please try again later.`,
  );
}

/** Uploads being read or planned in this process now (each holds its upload in memory). */
let busy = 0;

/**
 * Runs `work` (reading an upload and planning it) if fewer than `LIMITS.concurrentUploads` do so in this process,
 * else 503 with Retry-After at once, before the body is read.
 */
export async function withUploadSlot<T>(work: () => Promise<T>): Promise<T> {
  if (busy >= LIMITS.concurrentUploads) {
    throw new AppError(
      503,
      'The server is reading other imports just now; please try again in a minute.',
      'import_busy',
      { 'Retry-After': '30' },
    );
  }
  busy++;
  try {
    return await work();
  } finally {
    busy--;
  }
}

/** How many uploads this process reads or plans now. */
export const uploadsInProgress = () => busy;

/** The dry run: what each file would do (loose files are read where they are: nothing is kept). */
export async function previewImport(db: Db, files: UploadedFile[], space: Space, actor: Actor) {
  return planImport(db, archiveOf(files, { keep: false }), space, actor);
}

/** The advisory lock namespace of a user's preview (issue 25), keyed by hashtext(user id). */
const PREVIEW_LOCK = 7_326;

async function insertJob(
  db: Db,
  files: UploadedFile[],
  space: Space,
  actor: { id: string; role: string },
  status: ImportJobStatus,
) {
  const archive = archiveOf(files);
  const report = await planImport(db, archive, space, actor);
  return db.transaction(async (tx) => {
    // One preview per user: a new one replaces the one before (and lets its upload go); two at once, one after the other.
    if (status === 'preview') {
      await tx.execute(sql`select pg_advisory_xact_lock(${PREVIEW_LOCK}, hashtext(${actor.id}))`);
      await tx.delete(importJobs).where(and(eq(importJobs.createdBy, actor.id), eq(importJobs.status, 'preview')));
    }
    const [job] = await tx
      .insert(importJobs)
      .values({
        space,
        createdBy: actor.id,
        status,
        total: report.length,
        report,
        upload: Buffer.from(archive.bytes.buffer, archive.bytes.byteOffset, archive.bytes.byteLength),
      })
      .returning({ id: importJobs.id });
    return job.id;
  });
}

/** Runs a job in this process right after the current request is answered; errors are logged, the sweep resumes it. */
function runSoon(db: Db, id: string, logger: Logger): void {
  setImmediate(() => {
    runImportJob(db, id, logger).catch((err) => logger.error({ err, jobId: id }, 'import job stopped'));
  });
}

/** Imports for real: the upload is planned and kept, the job queued and started here. Returns its id. */
export async function startImport(
  db: Db,
  logger: Logger,
  files: UploadedFile[],
  space: Space,
  actor: { id: string; role: string },
): Promise<string> {
  const id = await insertJob(db, files, space, actor, 'queued');
  runSoon(db, id, logger);
  return id;
}

/**
 * The page's first step: the upload kept with its plan as a preview, to be confirmed (or dropped); it replaces the
 * user's earlier preview.
 */
export function savePreview(db: Db, files: UploadedFile[], space: Space, actor: { id: string; role: string }) {
  return insertJob(db, files, space, actor, 'preview');
}

/** One job as its creator (or an admin) may see it, with who made it; 404 for anyone else and for an unknown id. */
async function readJob(db: Db, id: string, actor: Actor): Promise<ImportJobView & { createdBy: string | null }> {
  const [job] = isUuid(id)
    ? await db
        .select({
          id: importJobs.id,
          space: importJobs.space,
          createdBy: importJobs.createdBy,
          status: importJobs.status,
          done: importJobs.done,
          total: importJobs.total,
          created: importJobs.created,
          skipped: importJobs.skipped,
          report: importJobs.report,
          createdAt: importJobs.createdAt,
          finishedAt: importJobs.finishedAt,
        })
        .from(importJobs)
        .where(eq(importJobs.id, id))
    : [];
  if (!job) throw notFound('Import not found.');
  authorize(actor, 'import.read', { ownerId: job.createdBy }, { notFoundMessage: 'Import not found.' });
  const { report, ...rest } = job;
  // A failed job's lines not done are errors too (so created + skipped + errors = total), and a preview's are known.
  const counted = job.status === 'failed' || job.status === 'preview' ? report : report.slice(0, job.done);
  const errors = counted.filter((e) => e.action === 'error').length;
  return { ...rest, space: job.space as Space, errors, items: report };
}

/** One job as its creator (or an admin) may see it; 404 for anyone else and for an unknown id. */
export async function importReport(db: Db, id: string, actor: Actor): Promise<ImportJobView> {
  const { createdBy: _, ...view } = await readJob(db, id, actor);
  return view;
}

/** The report page's job, and whether it is the reader's own (only they may confirm or cancel a preview). */
export async function importForPage(db: Db, id: string, actor: Actor) {
  const { createdBy, ...job } = await readJob(db, id, actor);
  return { job, mine: !!actor && createdBy === actor.id };
}

/** A preview is confirmed or dropped by the one who uploaded it only (admins may read it). */
async function ownPreview(db: Db, id: string, actor: Actor) {
  const job = await readJob(db, id, actor);
  if (job.createdBy !== actor?.id) {
    throw forbidden('Only the person who uploaded this import can confirm or cancel it.', 'not_your_import');
  }
  return job;
}

/** The preview becomes a job (queued and started here); false when it is not this user's preview any more. */
export async function confirmImport(db: Db, logger: Logger, id: string, actor: Actor): Promise<boolean> {
  const job = await ownPreview(db, id, actor);
  if (job.status !== 'preview') return false;
  const [row] = await db
    .update(importJobs)
    .set({ status: 'queued' })
    .where(and(eq(importJobs.id, id), eq(importJobs.status, 'preview')))
    .returning({ id: importJobs.id });
  if (row) runSoon(db, id, logger);
  return !!row;
}

/** Drops a preview (Cancel): nothing was imported. Answers the space it was for. */
export async function cancelPreview(db: Db, id: string, actor: Actor): Promise<Space> {
  const job = await ownPreview(db, id, actor);
  await db.delete(importJobs).where(and(eq(importJobs.id, id), eq(importJobs.status, 'preview')));
  return job.space;
}

/** A user's latest imports (not their previews), for the import page. */
export async function recentImports(db: Db, userId: string, limit = 5) {
  return db
    .select({
      id: importJobs.id,
      space: importJobs.space,
      status: importJobs.status,
      total: importJobs.total,
      created: importJobs.created,
      createdAt: importJobs.createdAt,
    })
    .from(importJobs)
    .where(and(eq(importJobs.createdBy, userId), ne(importJobs.status, 'preview')))
    .orderBy(desc(importJobs.createdAt))
    .limit(limit);
}

/** A running job that moved on no file for this long (started_at is its progress clock) is given up. */
const GIVE_UP = sql`now() - interval '1 hour'`;

/**
 * The sweep (import-jobs job, any process): gives up jobs abandoned for too long, resumes queued jobs nobody started
 * and running ones whose lease ran out, and forgets old previews and reports. Returns what it did.
 */
export async function sweepImports(db: Db, logger: Logger, signal?: AbortSignal) {
  const stuck = await db
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(
      and(eq(importJobs.status, 'running'), lt(importJobs.lockedUntil, sql`now()`), lt(importJobs.startedAt, GIVE_UP)),
    );
  let failed = 0;
  for (const { id } of stuck) {
    const reason = 'the import stopped (the process running it ended) and made no progress for an hour.';
    if (await finishJob(db, id, reason, true)) failed++;
  }
  const due = await db
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(
      or(
        and(eq(importJobs.status, 'queued'), lt(importJobs.createdAt, sql`now() - interval '10 seconds'`)),
        and(eq(importJobs.status, 'running'), lt(importJobs.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(importJobs.createdAt)
    .limit(10);
  for (const { id } of due) {
    if (signal?.aborted) break;
    await runImportJob(db, id, logger, { signal });
  }
  const forgotten = await db
    .delete(importJobs)
    .where(
      or(
        and(eq(importJobs.status, 'preview'), lt(importJobs.createdAt, sql`now() - interval '1 day'`)),
        and(inArray(importJobs.status, ['done', 'failed']), lt(importJobs.finishedAt, sql`now() - interval '30 days'`)),
      ),
    )
    .returning({ id: importJobs.id });
  return { failed, resumed: due.length, forgotten: forgotten.length };
}
