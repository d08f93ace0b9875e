import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A zip written as it is read, with Zip64 when it needs it. fflate's streaming Zip was the first choice, but it
 * writes no Zip64: past 65,535 files (a 50,000-item space with its images) its end record counts them wrong, and
 * past 4 GiB its offsets overflow; and its JavaScript deflate cost more than everything else of an export.
 * Here each file is deflated whole by Node's zlib (files are small: markdown, images of at most 10 MB), so its CRC
 * and sizes are known before its header is written (no data descriptors), and the central directory is kept as
 * compact bytes: about 100 bytes a file, the one thing that grows with the archive.
 */

/** One file of a zip. */
export interface ZipEntry {
  /** Its path in the zip (forward slashes). */
  name: string;
  data: Uint8Array;
  /** Deflate it (text); images are compressed already and are stored as they are. */
  deflate?: boolean;
  mtime?: Date;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END64 = 0x06064b50;
const LOCATOR64 = 0x07064b50;
const UTF8 = 0x0800;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
/** Central directory records are gathered into blocks of this many before they are joined (fewer small buffers). */
const BLOCK = 512;

/** A DOS date and time (what zip stores, in UTC here); before 1980 is 1 Jan 1980. */
function dosTime(d: Date | undefined): { time: number; date: number } {
  const t = d && d.getUTCFullYear() >= 1980 && d.getUTCFullYear() <= 2107 ? d : new Date(Date.UTC(1980, 0, 1));
  return {
    time: (t.getUTCHours() << 11) | (t.getUTCMinutes() << 5) | (t.getUTCSeconds() >> 1),
    date: ((t.getUTCFullYear() - 1980) << 9) | ((t.getUTCMonth() + 1) << 5) | t.getUTCDate(),
  };
}

/** Writes zip files one after the other: `file()` gives the bytes of one, `end()` the central directory. */
export class ZipWriter {
  private offset = 0;
  private count = 0;
  private readonly blocks: Buffer[] = [];
  private pending: Buffer[] = [];

  /** The bytes of one file: its local header, name and (deflated) data. */
  file(entry: ZipEntry): Buffer[] {
    const name = Buffer.from(entry.name, 'utf8');
    const data = entry.deflate ? deflateRawSync(entry.data, { level: 6 }) : entry.data;
    const crc = crc32(entry.data);
    const { time, date } = dosTime(entry.mtime);
    const method = entry.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(UTF8, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.byteLength, 18);
    local.writeUInt32LE(entry.data.byteLength, 22);
    local.writeUInt16LE(name.byteLength, 26);
    this.addCentral({ name, crc, time, date, method, size: data.byteLength, raw: entry.data.byteLength });
    this.offset += 30 + name.byteLength + data.byteLength;
    const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    // Small files go out as one chunk; a large one's bytes are not copied to join its header.
    return body.byteLength < 65_536 ? [Buffer.concat([local, name, body])] : [Buffer.concat([local, name]), body];
  }

  private addCentral(f: {
    name: Buffer;
    crc: number;
    time: number;
    date: number;
    method: number;
    size: number;
    raw: number;
  }) {
    // A header past 4 GiB into the archive keeps its offset in a Zip64 extra field.
    const far = this.offset >= MAX32;
    const record = Buffer.alloc(46 + f.name.byteLength + (far ? 12 : 0));
    record.writeUInt32LE(CENTRAL, 0);
    record.writeUInt16LE(45, 4);
    record.writeUInt16LE(far ? 45 : 20, 6);
    record.writeUInt16LE(UTF8, 8);
    record.writeUInt16LE(f.method, 10);
    record.writeUInt16LE(f.time, 12);
    record.writeUInt16LE(f.date, 14);
    record.writeUInt32LE(f.crc, 16);
    record.writeUInt32LE(f.size, 20);
    record.writeUInt32LE(f.raw, 24);
    record.writeUInt16LE(f.name.byteLength, 28);
    record.writeUInt16LE(far ? 12 : 0, 30);
    record.writeUInt32LE(far ? MAX32 : this.offset, 42);
    f.name.copy(record, 46);
    if (far) {
      const at = 46 + f.name.byteLength;
      record.writeUInt16LE(0x0001, at);
      record.writeUInt16LE(8, at + 2);
      record.writeBigUInt64LE(BigInt(this.offset), at + 4);
    }
    this.pending.push(record);
    this.count++;
    if (this.pending.length >= BLOCK) this.flushBlock();
  }

  private flushBlock() {
    if (this.pending.length) this.blocks.push(Buffer.concat(this.pending));
    this.pending = [];
  }

  /** The central directory and the end records (Zip64 ones when the count or the offsets need them). */
  end(): Buffer[] {
    this.flushBlock();
    const size = this.blocks.reduce((n, b) => n + b.byteLength, 0);
    const start = this.offset;
    const zip64 = this.count >= MAX16 || start >= MAX32 || size >= MAX32;
    const tail: Buffer[] = [];
    if (zip64) {
      const record = Buffer.alloc(56 + 20);
      record.writeUInt32LE(END64, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(45, 12);
      record.writeUInt16LE(45, 14);
      record.writeBigUInt64LE(BigInt(this.count), 24);
      record.writeBigUInt64LE(BigInt(this.count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      record.writeUInt32LE(LOCATOR64, 56);
      record.writeBigUInt64LE(BigInt(start + size), 64);
      record.writeUInt32LE(1, 72);
      tail.push(record);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END, 0);
    end.writeUInt16LE(Math.min(this.count, MAX16), 8);
    end.writeUInt16LE(Math.min(this.count, MAX16), 10);
    end.writeUInt32LE(Math.min(size, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    tail.push(end);
    const out = [...this.blocks, ...tail];
    this.blocks.length = 0;
    return out;
  }
}

/**
 * A zip made as it is read: each time the reader wants bytes, the next entry is taken from `entries` (which may read
 * the database for it) and its bytes go out. Nothing is read ahead but the first entry, taken before this resolves:
 * a source that fails at once (the database down on its first page) fails the request, whose error can still be
 * answered (503), instead of a 200 whose zip is cut off. Memory holds about one entry whatever the size of the whole;
 * a reader that goes away stops `entries`. A failure after that can only end the stream in error (the status and
 * headers are sent): `onError` hears of it.
 */
export async function zipStream(
  entries: AsyncIterable<ZipEntry>,
  onError?: (err: unknown) => void,
): Promise<ReadableStream<Uint8Array>> {
  const iterator = entries[Symbol.asyncIterator]();
  let first: IteratorResult<ZipEntry> | undefined = await iterator.next();
  const zip = new ZipWriter();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const taken = first;
        first = undefined;
        const next =
          taken ??
          (await iterator.next().catch((err: unknown) => {
            // Headers are sent: the reader gets a cut-off zip (the connection ends in error), the log says why.
            onError?.(err);
            throw err;
          }));
        for (const part of next.done ? zip.end() : zip.file(next.value)) controller.enqueue(part);
        if (next.done) controller.close();
      },
      async cancel() {
        first = undefined;
        await iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
