import { zipSync, type Zippable } from 'fflate';
import { TEST_ORIGIN } from '../helpers/app';

/** Zips and uploads for the import tests: real archives (fflate's zipSync), and hostile ones made from them. */

/** A real 1×1 PNG (browsers draw it). */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
/** Another image (other bytes): a minimal GIF. */
export const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');

const enc = new TextEncoder();

/** A zip of path → text or bytes. */
export function zip(files: Record<string, string | Uint8Array>): Uint8Array {
  const tree: Zippable = {};
  for (const [path, body] of Object.entries(files)) tree[path] = typeof body === 'string' ? enc.encode(body) : body;
  return zipSync(tree);
}

/** Offsets of each central-directory record of a zip. */
function centralRecords(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (view.getUint32(end, true) !== 0x06054b50) end--;
  const out: number[] = [];
  let at = view.getUint32(end + 16, true);
  for (let i = 0; i < view.getUint16(end + 10, true); i++) {
    out.push(at);
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return out;
}

/** The zip with entry `index`'s declared uncompressed size (central directory) set to `size`: a lying header. */
export function withDeclaredSize(bytes: Uint8Array, index: number, size: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(centralRecords(copy)[index] + 24, size, true);
  return copy;
}

/** The zip with entry `index` pointing at entry `to`'s data (overlapping entries, as a non-recursive bomb has). */
export function withSharedData(bytes: Uint8Array, index: number, to: number): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  const records = centralRecords(copy);
  view.setUint32(records[index] + 42, view.getUint32(records[to] + 42, true), true);
  return copy;
}

export interface UploadFile {
  name: string;
  body: Uint8Array | string;
}

/** A multipart POST of files (field `files`) and fields, same-origin, as the signed-in user. */
export function uploadRequest(
  files: UploadFile[],
  cookie?: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): RequestInit {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append('files', new Blob([typeof f.body === 'string' ? enc.encode(f.body) : new Uint8Array(f.body)]), f.name);
  return {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), ...headers },
    body: form,
  };
}
