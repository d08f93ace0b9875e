import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { badRequest, unsupportedMedia } from '../http/errors';
import { LIMITS } from './limits';
import { readMultipart } from './multipart';
import type { UploadedFile } from './upload';
import { tooManyFiles, uploadTooLarge } from './zip';

/** Room for the multipart framing around 50 MB of files (boundaries, part headers, the other fields). */
const FRAMING_BYTES = 256 * 1024;
const MAX_BODY = LIMITS.uploadBytes + FRAMING_BYTES;
/** Text fields a form of ours sends besides the files (space, a CSRF token …), with room to spare. */
const MAX_FIELDS = 20;

/** The import routes read their own (larger) body: the app's 5 MB limit and form text checks skip them. */
export const isImportUpload = (path: string) => path === '/api/import' || path === '/import';

/**
 * The multipart body of an import: refused at once when its Content-Length is over the limit, and while it is read
 * when it turns out larger (no length, or a false one) or holds more than 2,000 files. Answers the `files` and the
 * text fields.
 */
export async function readUploadForm(
  c: Context<AppEnv>,
): Promise<{ files: UploadedFile[]; fields: Record<string, string> }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw unsupportedMedia('Send the files as multipart/form-data, in the field "files".');
  }
  const declared = Number(c.req.header('content-length'));
  if (declared > MAX_BODY) throw uploadTooLarge();
  const body = c.req.raw.body;
  if (!body) throw badRequest('Choose one or more .md files, or one .zip, to import.', 'no_files');
  const parts = await readMultipart(body, type, {
    maxBytes: MAX_BODY,
    maxFiles: LIMITS.files,
    fileField: 'files',
    maxFields: MAX_FIELDS,
    tooLarge: uploadTooLarge,
    tooManyFiles: () => tooManyFiles(),
    invalid: (why) => badRequest(`The upload could not be read as a form (${why}).`, 'invalid_form'),
  });
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const text = new TextDecoder();
  for (const part of parts) {
    if (part.filename === undefined) fields[part.name] ??= text.decode(part.data);
    else if (part.name === 'files' && (part.filename || part.data.byteLength > 0)) {
      files.push({ name: part.filename, bytes: part.data });
    }
  }
  return { files, fields };
}
