import { zipSync, type Zippable } from 'fflate';
import { badRequest } from '../http/errors';
import { LIMITS } from './limits';
import { isImagePath, isMarkdownPath } from './markdown-file';
import { looksLikeZip, readArchive, safePath, tooManyFiles, uploadTooLarge, type Archive, type ZipEntry } from './zip';

/**
 * The files of one upload as one archive: a .zip is read as it is; Markdown files (and images beside them) are
 * packed into a zip, each name a path like a zip entry's (a folder upload's relative paths keep their folders).
 * Refuses at once (4xx) what no file-by-file report could list: no file, too many, too large, unsafe names.
 */

export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

const isZip = (f: UploadedFile) =>
  /\.zip$/i.test(f.name) || (!isMarkdownPath(f.name) && !isImagePath(f.name) && looksLikeZip(f.bytes));

/** A name not yet taken in the packed upload: `notes.md`, then `notes (2).md`. */
function freeName(taken: Map<string, Uint8Array>, path: string): string {
  if (!taken.has(path)) return path;
  const dot = path.lastIndexOf('.');
  const [stem, ext] = dot > path.lastIndexOf('/') ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
  for (let n = 2; ; n++) if (!taken.has(`${stem} (${n})${ext}`)) return `${stem} (${n})${ext}`;
}

/**
 * The upload as an archive, or a 4xx. `keep`: the upload is kept for a job (its bytes go to import_jobs.upload), so
 * loose files are packed into one stored zip (no compression: one copy of their bytes, the one value any process
 * can run or resume the job from, read back by the same checked reader). Without `keep` (a dry run) loose files are
 * read where they are, unpacked.
 */
export function archiveOf(files: UploadedFile[], { keep = true }: { keep?: boolean } = {}): Archive {
  if (files.length === 0) throw badRequest('Choose one or more .md files, or one .zip, to import.', 'no_files');
  if (files.length > LIMITS.files) throw tooManyFiles(files.length);
  if (files.reduce((sum, f) => sum + f.bytes.byteLength, 0) > LIMITS.uploadBytes) throw uploadTooLarge();
  if (files.some(isZip)) {
    if (files.length > 1) {
      throw badRequest(
        'Upload one .zip on its own, or Markdown files (and their images) without a zip.',
        'mixed_upload',
      );
    }
    return readArchive(files[0].bytes, files[0].name);
  }
  const named = new Map<string, Uint8Array>();
  for (const file of files) named.set(freeName(named, safePath(file.name)), file.bytes);
  if (keep) {
    const packed: Zippable = {};
    for (const [path, bytes] of named) packed[path] = [bytes, { level: 0 }];
    return readArchive(zipSync(packed), 'the upload');
  }
  const entries: ZipEntry[] = [...named].map(([path, bytes]) => ({
    path,
    method: 0,
    encrypted: false,
    compressedSize: bytes.byteLength,
    size: bytes.byteLength,
    crc: 0,
    offset: 0,
    data: bytes,
  }));
  return { bytes: new Uint8Array(0), entries, byPath: new Map(entries.map((e) => [e.path, e])), inflated: 0 };
}
