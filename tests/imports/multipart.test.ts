import { describe, expect, it } from 'vitest';
import { readMultipart } from '../../src/imports/multipart';

/** The streaming multipart reader: parts found however the body is cut into chunks, limits met as it streams. */

const enc = new TextEncoder();
const dec = new TextDecoder();

class Refused extends Error {}

const limits = {
  maxBytes: 10_000,
  maxFiles: 3,
  fileField: 'files',
  maxFields: 2,
  tooLarge: () => new Refused('too large'),
  tooManyFiles: () => new Refused('too many files'),
  invalid: (why: string) => new Refused(`invalid: ${why}`),
};

/** A stream of `body` cut into chunks of `size` bytes. */
function chunked(body: string | Uint8Array, size: number): ReadableStream<Uint8Array> {
  const bytes = typeof body === 'string' ? enc.encode(body) : body;
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const B = 'b0undary';
const body = [
  'a preamble to ignore\r\n',
  `--${B}\r\nContent-Disposition: form-data; name="space"\r\n\r\ndocuments\r\n`,
  `--${B}\r\nContent-Disposition: form-data; name="files"; filename="dir/n%22ame.md"\r\nContent-Type: text/markdown\r\n\r\n# Title\r\n\r\n-- ${B} in the text\r\n`,
  `--${B}\r\nContent-Disposition: form-data; name="files"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n`,
  `--${B}--`,
].join('');

const read = async (stream: ReadableStream<Uint8Array>, type = `multipart/form-data; boundary=${B}`) =>
  (await readMultipart(stream, type, limits)).map((p) => ({ ...p, data: dec.decode(p.data) }));

describe('a multipart body read as it streams', () => {
  it('answers the same parts whatever the chunks (down to one byte), preamble and epilogue dropped', async () => {
    const expected = [
      { name: 'space', data: 'documents' },
      { name: 'files', filename: 'dir/n"ame.md', data: `# Title\r\n\r\n-- ${B} in the text` },
      { name: 'files', filename: '', data: '' },
    ];
    for (const size of [1, 2, 3, 7, 16, 64, 100_000]) {
      expect(await read(chunked(body, size)), `chunks of ${size}`).toEqual(expected);
      expect(await read(chunked(`${body}\r\nan epilogue`, size))).toEqual(expected);
    }
    expect(await read(chunked(body, 64), `multipart/form-data; boundary="${B}"`)).toEqual(expected);
    await expect(read(chunked(body, 64), 'multipart/form-data')).rejects.toThrow(/invalid: .*boundary/i);
  });

  it('refuses too many files, too many fields, too many bytes and a body cut short', async () => {
    const file = (i: number) =>
      `--${B}\r\nContent-Disposition: form-data; name="files"; filename="f${i}.md"\r\n\r\nx\r\n`;
    const field = (i: number) => `--${B}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`;
    const end = `--${B}--\r\n`;
    await expect(read(chunked([0, 1, 2].map(file).join('') + end, 5))).resolves.toHaveLength(3);
    await expect(read(chunked([0, 1, 2, 3].map(file).join('') + end, 5))).rejects.toThrow('too many files');
    await expect(read(chunked([0, 1, 2].map(field).join('') + end, 5))).rejects.toThrow('too many fields');
    await expect(read(chunked(`${file(0).repeat(1)}--${B}\r\n${'x'.repeat(20_000)}`, 1000))).rejects.toThrow(
      'too large',
    );
    await expect(read(chunked(file(0), 4))).rejects.toThrow('invalid: Unexpected end of form');
    await expect(read(chunked(`--${B}\r\nno blank line\r\n${end}`, 4))).rejects.toThrow(
      /invalid: Malformed part header/,
    );
  });
});
