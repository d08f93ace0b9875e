import { crc32 } from 'node:zlib';
import { Inflate } from 'fflate';
import { AppError, badRequest, tooLarge } from '../http/errors';
import { LIMITS, megabytes } from './limits';

/**
 * A zip archive read the way unzip tools read one: from its central directory, every entry's path checked and its
 * declared sizes added up before a byte is inflated; then one entry at a time through fflate's streaming Inflate,
 * counting the bytes that actually come out (never more than the entry declared). Anything unsafe refuses the whole
 * upload with a 4xx naming the entry; a damaged entry is that file's problem only (EntryProblem).
 */

export interface ZipEntry {
  /** The path inside the archive, checked and normalised (`ops/linux/nginx.md`). */
  path: string;
  method: number;
  encrypted: boolean;
  compressedSize: number;
  size: number;
  crc: number;
  /** Where its local header starts. */
  offset: number;
  /** An uploaded file's bytes as they are (an upload of loose files read without packing them). */
  data?: Uint8Array;
}

export interface Archive {
  bytes: Uint8Array;
  /** The files (no folders), in the central directory's order. */
  entries: ZipEntry[];
  byPath: Map<string, ZipEntry>;
  /** Bytes inflated from it so far: every read counts, against one budget (`LIMITS.unpackedBytes`). */
  inflated: number;
  /** Lower-case path → the one entry of that name in any case (null when several differ only by case); built once. */
  byLowerPath?: Map<string, ZipEntry | null>;
}

/** Bytes inflated by every archive of this process (tests read it to see that an entry is inflated once). */
let inflatedInProcess = 0;
export const inflatedBytes = () => inflatedInProcess;

/** The entry at `path`, else the one entry whose path differs from it only by case (Windows and macOS ignore case). */
export function findEntry(archive: Archive, path: string): ZipEntry | undefined {
  const exact = archive.byPath.get(path);
  if (exact) return exact;
  if (!archive.byLowerPath) {
    archive.byLowerPath = new Map();
    for (const e of archive.entries) {
      const key = e.path.toLowerCase();
      archive.byLowerPath.set(key, archive.byLowerPath.has(key) ? null : e);
    }
  }
  return archive.byLowerPath.get(path.toLowerCase()) ?? undefined;
}

/** One entry cannot be read (encrypted, damaged, too large): the file is listed as an error, the rest goes on. */
export class EntryProblem extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_LOCATOR = 0x07064b50;
const FLAG_ENCRYPTED = 0x1;
const FLAG_UTF8 = 0x800;
/** Compressed bytes per push: deflate expands at most ~1032:1, so one push yields at most ~8 MB. */
const PUSH_BYTES = 8 * 1024;

/** Paths and file names longer than this are refused (no file system keeps such names). */
export const MAX_PATH_LENGTH = 1024;

/** A name as a message shows it: control characters as `?`, and cut short when long. */
export const shownName = (name: string) => {
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 120 ? `${clean.slice(0, 100)}…` : clean;
};

const notAZip = (name: string, why: string) =>
  badRequest(`"${shownName(name)}" is not a zip archive that can be read (${why}).`, 'invalid_zip');

export const bombRefused = (message: string) => new AppError(413, message, 'zip_bomb');

/**
 * A path from an archive (or an uploaded file's name) as a safe relative path, or a 400 naming it: no `..`, no
 * leading `/`, no drive letter, no backslash, no control character. `.` and empty segments are dropped.
 */
export function safePath(raw: string): string {
  if (raw.length > MAX_PATH_LENGTH) {
    throw badRequest(
      `The upload contains a path longer than ${MAX_PATH_LENGTH.toLocaleString('en')} characters ("${shownName(raw)}").`,
      'path_too_long',
    );
  }
  const unsafe =
    raw.includes('\\') ||
    raw.startsWith('/') ||
    /^[A-Za-z]:/.test(raw) ||
    /[\u0000-\u001f\u007f]/.test(raw) ||
    raw.split('/').includes('..');
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (unsafe || parts.length === 0) {
    throw badRequest(
      `The upload contains an unsafe path "${shownName(raw)}": paths must stay inside the archive (no "..", no leading "/", no drive letter, no backslash).`,
      'unsafe_path',
    );
  }
  return parts.join('/');
}

/** Entry names are UTF-8 when flagged, and nearly always in practice; otherwise read byte for byte. */
function decodeName(bytes: Uint8Array, utf8: boolean): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return utf8 ? new TextDecoder().decode(bytes) : String.fromCharCode(...bytes);
  }
}

function findEndRecord(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= Math.max(0, last - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  return -1;
}

/** The declared checks of one entry: an entry that would unpack far beyond its compressed size is a bomb. */
function checkRatio(entry: ZipEntry): void {
  if (entry.size > LIMITS.ratioFloorBytes && entry.size / Math.max(1, entry.compressedSize) > LIMITS.ratio) {
    const ratio = Math.round(entry.size / Math.max(1, entry.compressedSize));
    throw bombRefused(
      `"${shownName(entry.path)}" is compressed ${ratio}:1 (${megabytes(entry.size)} from ${megabytes(entry.compressedSize)}); an archive with such an entry is refused as a zip bomb.`,
    );
  }
}

/** Where an entry's data starts (after its local header), checked to lie inside the archive. */
function dataRange(bytes: Uint8Array, entry: ZipEntry): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (entry.offset + 30 > bytes.length || view.getUint32(entry.offset, true) !== LOCAL) {
    throw new EntryProblem('is damaged (its local header is missing)');
  }
  const start = entry.offset + 30 + view.getUint16(entry.offset + 26, true) + view.getUint16(entry.offset + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new EntryProblem('is damaged (its data runs past the end of the archive)');
  return [start, end];
}

/** Entries whose data overlap (one stored block read as many files) only a zip bomb has. */
function checkOverlaps(bytes: Uint8Array, entries: ZipEntry[]): void {
  const ranges = entries
    .map((e) => {
      try {
        return { e, range: dataRange(bytes, e) };
      } catch {
        return null; // damaged: that entry's own problem when it is read
      }
    })
    .filter((r) => r !== null)
    .sort((a, b) => a.e.offset - b.e.offset);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i].e.offset < ranges[i - 1].range[1]) {
      throw bombRefused(
        `"${shownName(ranges[i].e.path)}" shares its data with "${shownName(ranges[i - 1].e.path)}"; an archive with overlapping entries is refused as a zip bomb.`,
      );
    }
  }
}

/**
 * Reads a zip's central directory: 400 when it is not a zip or a path is unsafe, 413 when it holds too many files,
 * would unpack to too much, or has an entry compressed like a bomb. `name` is the upload's file name, for messages.
 */
export function readArchive(bytes: Uint8Array, name: string): Archive {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 22) throw notAZip(name, 'too short');
  const end = findEndRecord(view);
  if (end < 0) throw notAZip(name, 'no central directory');
  if (end >= 20 && view.getUint32(end - 20, true) === ZIP64_LOCATOR) throw notAZip(name, 'ZIP64 is not supported');
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0) {
    throw notAZip(name, 'archives split over several files are not supported');
  }
  const count = view.getUint16(end + 10, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (directoryOffset > end) throw notAZip(name, 'its central directory is out of place');

  const entries: ZipEntry[] = [];
  const byPath = new Map<string, ZipEntry>();
  let declared = 0;
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL) throw notAZip(name, 'its central directory is damaged');
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (next > end) throw notAZip(name, 'its central directory is damaged');
    // More than 4 bytes a character: longer than any name we take, refused before it is decoded.
    const nameBytes = bytes.subarray(at + 46, at + 46 + Math.min(nameLength, 4 * MAX_PATH_LENGTH + 1));
    const raw = decodeName(nameBytes, (flags & FLAG_UTF8) !== 0);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const offset = view.getUint32(at + 42, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    at = next;
    if (raw.endsWith('/') && size === 0) {
      safePath(raw); // a folder holds nothing, but its name must be safe too
      continue;
    }
    if (size === 0xffffffff || compressedSize === 0xffffffff || offset === 0xffffffff) {
      throw notAZip(name, 'ZIP64 is not supported');
    }
    const entry: ZipEntry = {
      path: safePath(raw),
      method,
      encrypted: (flags & FLAG_ENCRYPTED) !== 0,
      compressedSize,
      size,
      crc,
      offset,
    };
    entries.push(entry);
    if (entries.length > LIMITS.files) throw tooManyFiles(count);
    if (byPath.has(entry.path)) throw badRequest(`The archive lists "${shownName(entry.path)}" twice.`, 'invalid_zip');
    byPath.set(entry.path, entry);
    checkRatio(entry);
    declared += size;
    if (declared > LIMITS.unpackedBytes) {
      throw bombRefused(
        `The archive would unpack to more than ${megabytes(LIMITS.unpackedBytes)} (its entries declare at least ${megabytes(declared)}); it is refused.`,
      );
    }
  }
  checkOverlaps(bytes, entries);
  return { bytes, entries, byPath, inflated: 0 };
}

/** More files than an import takes; `count` when it is known (a zip says it), else "more than" the limit. */
export const tooManyFiles = (count?: number) =>
  new AppError(
    413,
    `The upload holds ${count === undefined ? 'more than ' : ''}${(count ?? LIMITS.files).toLocaleString('en')} files; at most ${LIMITS.files.toLocaleString('en')} can be imported at once.`,
    'too_many_files',
  );

/**
 * One entry's bytes, inflated in steps and counted as they come: more than the entry declared, or more than the
 * archive's budget in all (every read counts, a second read of an entry too), refuses the upload (413, a bomb);
 * more than `maxBytes`, encryption, an unknown method or a bad CRC is the entry's own problem (EntryProblem).
 * A stored entry is answered as a view of the archive's bytes (not a copy): callers only read it.
 */
export function inflateEntry(archive: Archive, entry: ZipEntry, maxBytes: number): Uint8Array {
  if (entry.encrypted) throw new EntryProblem('is encrypted');
  if (entry.size > maxBytes) throw new EntryProblem(`is larger than ${megabytes(maxBytes)}`);
  if (entry.data) {
    countInflated(archive, entry.size);
    return entry.data;
  }
  let out: Uint8Array;
  const [start, end] = dataRange(archive.bytes, entry);
  const data = archive.bytes.subarray(start, end);
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw new EntryProblem('is damaged (its sizes disagree)');
    countInflated(archive, entry.size);
    out = data;
  } else if (entry.method === 8) {
    out = inflateCounted(archive, data, entry);
  } else {
    throw new EntryProblem(`uses a compression method (${entry.method}) that cannot be read`);
  }
  if (out.length !== entry.size) throw new EntryProblem('is damaged (it unpacks to another size than declared)');
  if (crc32(out) !== entry.crc) throw new EntryProblem('is damaged (its checksum does not match)');
  return out;
}

/** Counts `bytes` more inflated from the archive; past the budget the upload is refused. */
function countInflated(archive: Archive, bytes: number): void {
  archive.inflated += bytes;
  inflatedInProcess += bytes;
  if (archive.inflated > LIMITS.unpackedBytes) {
    throw bombRefused(
      `The archive unpacks to more than ${megabytes(LIMITS.unpackedBytes)} as it is read; it is refused as a zip bomb.`,
    );
  }
}

function inflateCounted(archive: Archive, data: Uint8Array, entry: ZipEntry): Uint8Array {
  const out = new Uint8Array(entry.size);
  let total = 0;
  const inflater = new Inflate((chunk) => {
    if (total + chunk.length > entry.size) {
      throw bombRefused(
        `"${shownName(entry.path)}" unpacks to more than the ${entry.size.toLocaleString('en')} bytes its header declares; the archive is refused as a zip bomb.`,
      );
    }
    countInflated(archive, chunk.length);
    out.set(chunk, total);
    total += chunk.length;
  });
  try {
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
    for (let i = 0; i < data.length; i += PUSH_BYTES) {
      inflater.push(data.subarray(i, i + PUSH_BYTES), i + PUSH_BYTES >= data.length);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new EntryProblem('is damaged (its compressed data cannot be read)');
  }
  return total === entry.size ? out : out.subarray(0, total);
}

/** True when the bytes start like a zip (a local header, or an empty archive's end record). */
export const looksLikeZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);

/** The upload is larger than a limit (413 with the limit named). */
export const uploadTooLarge = () =>
  tooLarge(`An upload can be at most ${megabytes(LIMITS.uploadBytes)}; split it into several imports.`);
