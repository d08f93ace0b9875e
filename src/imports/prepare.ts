import { createHash } from 'node:crypto';
import { unstorable } from '../http/input-guard';
import { checkItemInput } from '../knowledge/service';
import type { DocumentInput, Space } from '../knowledge/schemas';
import { sniffImage, type ImageType } from '../objects/service';
import { LIMITS } from './limits';
import { FileProblem, imageTargets, readMarkdownItem, resolveImage, rewriteImages } from './markdown-file';
import { EntryProblem, findEntry, inflateEntry, type Archive, type ZipEntry } from './zip';

/**
 * One Markdown entry of an upload made ready to save: its item input (checked as the API checks one) and the images
 * it shows, read and recognised by their bytes. The preview and the job both call this, so they agree on every file.
 *
 * An image shown by many files is inflated once per upload (the preview) or per run (the job): what it is (its type
 * and SHA-256) is remembered by its path, its bytes are not; the job asks for the bytes of an image it has not stored
 * yet in this run, and keeps them for that one file.
 */

export interface PreparedImage {
  /** The target as written in the Markdown. */
  target: string;
  /** The archive path it points at. */
  path: string;
  type: ImageType;
  /** SHA-256 of its bytes (hex). */
  sha256: string;
  /** Its bytes, when they were asked for. */
  bytes?: Uint8Array;
}

export interface PreparedFile {
  input: DocumentInput;
  images: PreparedImage[];
}

type ImageFacts = { type: ImageType; sha256: string } | { problem: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads the entries of one upload (or one run of a job): each image inflated once, every byte counted. */
export class UploadReader {
  private readonly images = new Map<string, ImageFacts>();

  constructor(readonly archive: Archive) {}

  text(entry: ZipEntry): string {
    let bytes: Uint8Array;
    try {
      bytes = inflateEntry(this.archive, entry, LIMITS.markdownBytes);
    } catch (err) {
      if (err instanceof EntryProblem) throw new FileProblem(`The file ${err.message}.`);
      throw err;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new FileProblem('The file is not UTF-8 text.');
    }
    const problem = unstorable(text);
    if (problem) throw new FileProblem(`The file ${problem}.`);
    return text;
  }

  /** The image `target` of the file at `from` shows: what it is, and its bytes when `withBytes(its path)`. */
  image(from: string, target: string, withBytes: (path: string) => boolean): PreparedImage {
    const entry = findEntry(this.archive, resolveImage(from, target));
    if (!entry) throw new FileProblem(`Image "${target}" is not in the upload.`);
    const known = this.images.get(entry.path);
    if (known && 'problem' in known) throw new FileProblem(`Image "${target}" ${known.problem}.`);
    const wanted = withBytes(entry.path);
    if (known && !wanted) return { target, path: entry.path, ...known };
    let bytes: Uint8Array;
    try {
      bytes = inflateEntry(this.archive, entry, LIMITS.imageBytes);
    } catch (err) {
      if (!(err instanceof EntryProblem)) throw err;
      this.images.set(entry.path, { problem: err.message });
      throw new FileProblem(`Image "${target}" ${err.message}.`);
    }
    const type = sniffImage(bytes);
    if (!type) {
      this.images.set(entry.path, { problem: 'is not a PNG, JPEG, GIF or WebP image' });
      throw new FileProblem(`Image "${target}" is not a PNG, JPEG, GIF or WebP image.`);
    }
    const facts = { type, sha256: createHash('sha256').update(bytes).digest('hex') };
    this.images.set(entry.path, facts);
    return wanted ? { target, path: entry.path, ...facts, bytes } : { target, path: entry.path, ...facts };
  }
}

/** A link of the length an object's is, to check that every image's link can be rewritten before any is stored. */
const SAMPLE_URL = '/objects/00000000-0000-8000-8000-000000000000';

/**
 * Reads, parses and checks one Markdown entry; throws FileProblem with the reason it cannot be imported. `withBytes`:
 * which images' bytes the caller needs (the job: those it has not stored yet); the preview needs none.
 */
export function prepareFile(
  reader: UploadReader,
  entry: ZipEntry,
  space: Space,
  withBytes: (path: string) => boolean = () => false,
): PreparedFile {
  const item = readMarkdownItem(entry.path, reader.text(entry), space);
  if (!item.content.trim()) throw new FileProblem('The file has no text besides its title and front matter.');
  const fileBytes = new Map<string, Uint8Array>(); // two targets of one image (`a.png`, `./a.png`): read once
  const images = imageTargets(item.content).map((target) => {
    const image = reader.image(entry.path, target, (path) => !fileBytes.has(path) && withBytes(path));
    const bytes = image.bytes ?? fileBytes.get(image.path);
    if (bytes) fileBytes.set(image.path, bytes);
    return bytes ? { ...image, bytes } : image;
  });
  rewriteImages(item.content, new Map(images.map((i) => [i.target, SAMPLE_URL])));
  const checked = checkItemInput(item);
  if (checked.problem !== undefined) throw new FileProblem(checked.problem);
  return { input: checked.input, images };
}
