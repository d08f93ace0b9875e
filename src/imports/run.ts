import { createHash } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { can, type Actor } from '../auth/policy';
import type { Db } from '../db/client';
import { importJobs, users, type ImportReportEntry } from '../db/schema';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError } from '../http/errors';
import type { Logger } from '../http/logger';
import { createItem, existingTitles } from '../knowledge/service';
import type { Space } from '../knowledge/shared';
import { saveObjectOnce } from '../objects/service';
import { rewriteImages } from './markdown-file';
import { alreadyExists, nextTurn, problemReason } from './plan';
import { prepareFile, UploadReader, type PreparedImage } from './prepare';
import { readArchive } from './zip';

/**
 * Runs an import job: each file in its own transaction, which also moves the job's progress on (done, counts, its
 * report line) only if `done` is still that file's index. So a process that dies mid-file leaves no half of it, a
 * job whose lease ran out is resumed at the first file not done, and two runners never save a file twice (the
 * second one's update finds `done` moved on, rolls back and stops). Two jobs importing the same title at once are
 * kept apart by a lock on the title, taken in the file's transaction, under which the title is checked again.
 *
 * `started_at` is the job's progress clock: set when it is first claimed and again as each file is done, so the sweep
 * gives up a job that made no progress for an hour (a claim alone is no progress: a job that keeps killing its
 * runner is given up), not one that has simply run for long.
 */

/** The advisory lock namespace of import titles (issue 25); the key is hashtext(space:lower(title)). */
const TITLE_LOCK = 7_325;

/** A claim lasts this long and every file renews it; a job not renewed for that long is taken for abandoned. */
const LEASE = sql`now() + interval '2 minutes'`;

/** Another runner moved the job on (or it was failed): this one stops. */
class LostClaim extends Error {}

type Outcome = 'created' | 'skipped' | 'error';

interface ClaimedJob {
  id: string;
  space: Space;
  createdBy: string | null;
  done: number;
  total: number;
  report: ImportReportEntry[];
  upload: Buffer | null;
}

/** Takes a queued job, or a running one whose lease ran out; null when another runner has it or it is over. */
async function claim(db: Db, id: string): Promise<ClaimedJob | null> {
  const [job] = await db
    .update(importJobs)
    .set({ status: 'running', lockedUntil: LEASE, startedAt: sql`coalesce(${importJobs.startedAt}, now())` })
    .where(
      and(
        eq(importJobs.id, id),
        or(
          eq(importJobs.status, 'queued'),
          and(eq(importJobs.status, 'running'), lt(importJobs.lockedUntil, sql`now()`)),
        ),
      ),
    )
    .returning({
      id: importJobs.id,
      space: importJobs.space,
      createdBy: importJobs.createdBy,
      done: importJobs.done,
      total: importJobs.total,
      report: importJobs.report,
      upload: importJobs.upload,
    });
  return job ? { ...job, space: job.space as Space } : null;
}

/** Records file `index` as done with its final line, in `db` (the file's transaction or not); LostClaim if moved on. */
async function advance(db: Db, jobId: string, index: number, entry: ImportReportEntry, outcome: Outcome) {
  const rows = await db
    .update(importJobs)
    .set({
      done: sql`${importJobs.done} + 1`,
      startedAt: sql`now()`,
      created: sql`${importJobs.created} + ${outcome === 'created' ? 1 : 0}`,
      skipped: sql`${importJobs.skipped} + ${outcome === 'skipped' ? 1 : 0}`,
      report: sql`jsonb_set(${importJobs.report}, ${`{${index}}`}::text[], ${JSON.stringify(entry)}::jsonb)`,
      lockedUntil: LEASE,
    })
    .where(and(eq(importJobs.id, jobId), eq(importJobs.done, index), eq(importJobs.status, 'running')))
    .returning({ id: importJobs.id });
  if (rows.length === 0) throw new LostClaim();
}

/**
 * Ends a job: every line not done becomes an error with `reason` (none when all are done), the upload is let go.
 * `abandoned`: the sweep gives it up, which it does only if, locked, the job still runs with its lease run out (a
 * runner that claimed it in between keeps it). Answers whether it ended it.
 */
export async function finishJob(db: Db, jobId: string, reason?: string, abandoned = false): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [job] = await tx
      .select({
        done: importJobs.done,
        report: importJobs.report,
        status: importJobs.status,
        leaseOver: sql<boolean>`coalesce(${importJobs.lockedUntil} < now(), true)`,
      })
      .from(importJobs)
      .where(eq(importJobs.id, jobId))
      .for('update');
    if (!job || job.status === 'done' || job.status === 'failed' || job.status === 'preview') return false;
    if (abandoned && (job.status !== 'running' || !job.leaseOver)) return false;
    const report = reason
      ? job.report.map((e, i) =>
          i < job.done ? e : { ...e, action: 'error' as const, reason: `Not imported: ${reason}`, itemId: undefined },
        )
      : job.report;
    await tx
      .update(importJobs)
      .set({
        status: reason ? 'failed' : 'done',
        report,
        upload: null,
        lockedUntil: null,
        finishedAt: sql`now()`,
      })
      .where(eq(importJobs.id, jobId));
    return true;
  });
}

/** The id of an image of this import: the same bytes in one import are one object (also when a run is resumed). */
function imageId(jobId: string, sha256: string): string {
  const hex = createHash('sha256').update(jobId).update(':').update(Buffer.from(sha256, 'hex')).digest('hex');
  const variant = ((Number.parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Why an unexpected failure of one file is not the whole job's: in words, without internals. */
const savedFailure = (err: unknown) =>
  err instanceof AppError && err.status < 500 ? err.message : 'It could not be saved (see the server log).';

/** What one run keeps between files: the upload's reader (each image inflated once) and the images it stored. */
interface Run {
  job: ClaimedJob & { createdBy: string };
  reader: UploadReader;
  /** Archive paths of images saved by a file whose transaction committed (their object exists; no bytes needed). */
  stored: Set<string>;
  actor: Actor;
  logger: Logger;
  options: RunOptions;
}

/** Saves a file's images (those not stored yet in this run) in `tx`; answers target → our URL. */
async function saveImages(tx: Db, run: Run, images: PreparedImage[]): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const image of images) {
    const id = imageId(run.job.id, image.sha256);
    if (image.bytes) await saveObjectOnce(tx, id, run.job.createdBy, image.type, image.bytes);
    urls.set(image.target, `/objects/${id}`);
  }
  return urls;
}

const skipped = (entry: ImportReportEntry, title: string, space: Space) => ({
  entry: { ...entry, title, action: 'skip' as const, reason: alreadyExists(title, space) },
  outcome: 'skipped' as const,
});

/**
 * Creates file `index`'s item and its images, and moves the job on, in one transaction: under the lock of its
 * title, checked again there (another job may have just created it).
 */
async function importFile(db: Db, run: Run, index: number): Promise<void> {
  const { job, reader, stored, actor, logger } = run;
  const entry = job.report[index];
  let outcome: { entry: ImportReportEntry; outcome: Outcome };
  try {
    const prepared = prepareFile(reader, reader.archive.byPath.get(entry.path)!, job.space, (p) => !stored.has(p));
    const { title } = prepared.input;
    if ((await existingTitles(db, job.space, [title], actor)).size > 0) {
      outcome = skipped(entry, title, job.space);
    } else {
      await run.options.afterCheck?.(index);
      const created = await db.transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(${TITLE_LOCK}, hashtext(${job.space} || ':' || lower(btrim(${title}))))`,
        );
        if ((await existingTitles(tx, job.space, [title], actor)).size > 0) {
          const taken = skipped(entry, title, job.space);
          await advance(tx, job.id, index, taken.entry, taken.outcome);
          return false;
        }
        const urls = await saveImages(tx, run, prepared.images);
        const content = rewriteImages(prepared.input.content, urls);
        const item = await createItem(tx, job.space, { ...prepared.input, content }, job.createdBy);
        await advance(tx, job.id, index, { ...entry, title, action: 'create', itemId: item.id }, 'created');
        return true;
      });
      if (created) for (const image of prepared.images) stored.add(image.path);
      return;
    }
  } catch (err) {
    if (err instanceof LostClaim || isDatabaseUnavailable(err)) throw err;
    const reason = problemReason(err);
    if (reason === null) logger.warn({ err, jobId: job.id, path: entry.path }, 'import: a file could not be saved');
    outcome = { entry: { ...entry, action: 'error', reason: reason ?? savedFailure(err) }, outcome: 'error' };
  }
  await advance(db, job.id, index, outcome.entry, outcome.outcome);
}

/** Why the job's creator may not run it any more (gone, deactivated, no longer allowed), or null. */
async function creatorProblem(db: Db, userId: string | null): Promise<{ actor: Actor; problem: string | null }> {
  const [user] = userId
    ? await db
        .select({ id: users.id, role: users.role, status: users.accountStatus })
        .from(users)
        .where(eq(users.id, userId))
    : [];
  if (!user) return { actor: null, problem: 'the account that started the import no longer exists.' };
  if (user.status !== 'active' || !can(user, 'data.import')) {
    return { actor: user, problem: 'the account that started the import may no longer import.' };
  }
  return { actor: user, problem: null };
}

export interface RunOptions {
  /** Stops the run between files; the job is left to be resumed when its lease runs out. */
  signal?: AbortSignal;
  /** Awaited before each file (tests use it to play a second runner in between). */
  beforeFile?: (index: number) => Promise<void>;
  /** Awaited when a file's title was found free, before its transaction (tests play another runner there). */
  afterCheck?: (index: number) => Promise<void>;
}

/** Runs (or resumes) one job to its end, unless another runner holds it. */
export async function runImportJob(db: Db, id: string, logger: Logger, options: RunOptions = {}): Promise<void> {
  const { signal, beforeFile } = options;
  const job = await claim(db, id);
  if (!job) return;
  const { actor, problem } = await creatorProblem(db, job.createdBy);
  if (problem || !job.createdBy) {
    await finishJob(db, id, problem ?? undefined);
    return;
  }
  let reader: UploadReader;
  try {
    if (!job.upload) throw new Error('no upload');
    // A view of the bytes the database answered, not a copy of them.
    reader = new UploadReader(
      readArchive(new Uint8Array(job.upload.buffer, job.upload.byteOffset, job.upload.byteLength), 'the upload'),
    );
  } catch {
    await finishJob(db, id, 'the upload could not be read again.');
    return;
  }
  const run: Run = { job: { ...job, createdBy: job.createdBy }, reader, stored: new Set(), actor, logger, options };
  try {
    for (let index = job.done; index < job.total; index++) {
      if (signal?.aborted) return;
      await beforeFile?.(index);
      await nextTurn();
      const entry = job.report[index];
      if (entry.action === 'create') await importFile(db, run, index);
      else await advance(db, id, index, entry, entry.action === 'skip' ? 'skipped' : 'error');
    }
  } catch (err) {
    if (err instanceof LostClaim) return;
    throw err;
  }
  await finishJob(db, id);
}
