import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';

/**
 * A multipart/form-data body read with busboy as it streams in: an upload of too many files or bytes is refused at
 * the first part or byte over the limit, not after the whole body is buffered.
 */

export interface FormPart {
  name: string;
  /** Present for a file part (possibly empty: a file input left empty). */
  filename?: string;
  data: Uint8Array;
}

export interface MultipartLimits {
  /** Bytes of the whole body; past it `tooLarge()` is thrown. */
  maxBytes: number;
  /** Parts named `fileField` that carry a file; past it `tooManyFiles()` is thrown. */
  maxFiles: number;
  fileField: string;
  /** Other parts (text fields); past it the form is refused. */
  maxFields: number;
  tooLarge: () => Error;
  tooManyFiles: () => Error;
  /** A body that is not multipart as it claims (truncated, no boundary, too many fields). */
  invalid: (why: string) => Error;
}

/** Longest text field taken (our forms send a space name and a CSRF token). */
const FIELD_BYTES = 64 * 1024;

/** Browsers write `"`, CR and LF in a file name as %22, %0D and %0A (HTML's form encoding); nothing else is escaped. */
const fileNameOf = (raw: string) => raw.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');

/** The parts of `body` in order (file contents as read), or the limit's error. */
export function readMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  limits: MultipartLimits,
): Promise<FormPart[]> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Folder uploads name their files "dir/name.md": the folders are the categories.
        preservePath: true,
        defParamCharset: 'utf8',
        limits: { files: limits.maxFiles, fields: limits.maxFields, fieldSize: FIELD_BYTES, fileSize: limits.maxBytes },
      });
    } catch (err) {
      reject(limits.invalid(err instanceof Error ? err.message : String(err)));
      return;
    }
    const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
    const parts: FormPart[] = [];
    let bytes = 0;
    let done = false;
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      source.unpipe(parser);
      source.destroy();
      parser.removeAllListeners('close');
      reject(err);
    };
    source.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) fail(limits.tooLarge());
    });
    source.on('error', () => fail(limits.invalid('the body was cut short')));
    parser.on('file', (name, stream, info) => {
      const part: FormPart = { name, filename: fileNameOf(info.filename ?? ''), data: new Uint8Array(0) };
      parts.push(part);
      const chunks: Buffer[] = [];
      // A body cut short fails the file's stream too; the parser's own 'error' answers for it.
      stream.on('error', () => {});
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(limits.tooLarge()));
      stream.on('close', () => {
        part.data = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(limits.invalid(`the field "${name.slice(0, 40)}" is too long`));
      else parts.push({ name, data: Buffer.from(value) });
    });
    parser.on('filesLimit', () => fail(limits.tooManyFiles()));
    parser.on('fieldsLimit', () => fail(limits.invalid('too many fields')));
    parser.on('error', (err: Error) => fail(limits.invalid(err.message)));
    parser.on('close', () => {
      if (done) return;
      done = true;
      resolve(parts.filter((p) => p.filename === undefined || p.name === limits.fileField));
    });
    source.pipe(parser);
  });
}
