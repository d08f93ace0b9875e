import type { Actor } from '../auth/policy';
import type { Db } from '../db/client';
import type { ImportReportEntry } from '../db/schema';
import { existingTitles } from '../knowledge/service';
import { SPACES, type Space } from '../knowledge/shared';
import { FileProblem, fileTitle, isImagePath, isMarkdownPath } from './markdown-file';
import { prepareFile, UploadReader } from './prepare';
import type { Archive } from './zip';

/**
 * What an upload would do, file by file (the dry run, and the report a job starts from): every Markdown file is
 * created, skipped (its title is taken, in the space or earlier in the upload) or an error with its reason; other
 * files are skipped; images are read through the files that show them, each once. The event loop is let go between
 * files (`nextTurn`), so other requests are answered while a large upload is read.
 */

/** Lets timers and I/O run before going on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Files an archiver adds that are nobody's content (macOS resource forks, Finder and Explorer thumbnails). */
const isClutter = (path: string) =>
  path.startsWith('__MACOSX/') || /(^|\/)\.[^/]*$/.test(path) || /(^|\/)(Thumbs\.db|desktop\.ini)$/i.test(path);

export const alreadyExists = (title: string, space: Space) =>
  `An item titled "${title}" already exists in the ${SPACES[space].page.title.toLowerCase()}.`;

export const problemReason = (err: unknown) => (err instanceof FileProblem ? err.message : null);

export async function planImport(db: Db, archive: Archive, space: Space, actor: Actor): Promise<ImportReportEntry[]> {
  const entries: ImportReportEntry[] = [];
  const paths = archive.entries.map((e) => e.path).sort((a, b) => a.localeCompare(b, 'en'));
  const reader = new UploadReader(archive);
  for (const path of paths) {
    if (isClutter(path) || isImagePath(path)) continue;
    if (!isMarkdownPath(path)) {
      entries.push({
        path,
        title: path.split('/').at(-1)!,
        action: 'skip',
        reason: 'Not a Markdown file (.md, .markdown) or an image: not imported.',
      });
      continue;
    }
    await nextTurn();
    try {
      const { input } = prepareFile(reader, archive.byPath.get(path)!, space);
      entries.push({ path, title: input.title, action: 'create' });
    } catch (err) {
      const reason = problemReason(err);
      if (reason === null) throw err; // a refusal of the whole upload (zip bomb)
      entries.push({ path, title: fileTitle(path), action: 'error', reason });
    }
  }
  await markDuplicates(db, entries, space, actor);
  return entries;
}

/** Skips a title the space already has (for this reader) or that an earlier file of the upload takes. */
async function markDuplicates(db: Db, entries: ImportReportEntry[], space: Space, actor: Actor): Promise<void> {
  const creates = entries.filter((e) => e.action === 'create');
  const taken = await existingTitles(
    db,
    space,
    creates.map((e) => e.title),
    actor,
  );
  const first = new Map<string, string>();
  for (const entry of creates) {
    const key = entry.title.trim().toLowerCase();
    const earlier = first.get(key);
    if (taken.has(entry.title)) {
      Object.assign(entry, { action: 'skip', reason: alreadyExists(entry.title, space) });
    } else if (earlier) {
      Object.assign(entry, { action: 'skip', reason: `Same title as "${earlier}", earlier in this upload.` });
    } else {
      first.set(key, entry.path);
    }
  }
}
