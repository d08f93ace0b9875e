/**
 * The bench's load generator: one keep-alive HTTP/1.1 connection sending GETs one after another, as wrk
 * does. The request bytes are built once, and a response is read only as far as its status line and its
 * length: a Content-Length body is counted, not kept; a chunked one is kept until its last chunk. Nothing is
 * parsed further or unpacked. node:http's agent and parser cost the client about half a millisecond a
 * request, which on a 2-core machine is CPU taken from the server being measured.
 */
import { connect, type Socket } from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');

interface Pending {
  resolve: (status: number) => void;
  reject: (err: Error) => void;
}

export class KeepAliveConnection {
  private readonly socket: Socket;
  private readonly request: Buffer;
  private pending: Pending | null = null;
  /** Bytes of the current response received so far, until its head (and a chunked body) is complete. */
  private buffer: Buffer = Buffer.alloc(0);
  private status = 0;
  /** Body bytes still to come of a Content-Length response, once its head has arrived. */
  private bodyLeft: number | null = null;

  constructor(url: URL, headers: Record<string, string>) {
    const lines = [
      `GET ${url.pathname}${url.search} HTTP/1.1`,
      `Host: ${url.host}`,
      'Connection: keep-alive',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    this.request = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
    this.socket = connect(Number(url.port || 80), url.hostname);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk) => this.read(chunk));
    this.socket.on('error', (err) => this.fail(err));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  /** Sends one GET and resolves with the status once the whole body has arrived. */
  get(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(this.request);
    });
  }

  close(): void {
    this.pending = null;
    this.socket.destroy();
  }

  private fail(err: Error) {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(err);
  }

  private read(chunk: Buffer) {
    if (this.bodyLeft !== null) {
      this.bodyLeft -= chunk.length;
      if (this.bodyLeft <= 0) this.finish();
      return;
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const headEnd = this.buffer.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.buffer.subarray(0, headEnd).toString('latin1').toLowerCase();
    const bodyStart = headEnd + HEAD_END.length;
    this.status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
    if (length) {
      this.bodyLeft = Number(length[1]) - (this.buffer.length - bodyStart);
      if (this.bodyLeft <= 0) this.finish();
    } else if (!/\r\ntransfer-encoding:[^\r]*chunked/.test(head) || chunkedEnd(this.buffer, bodyStart)) {
      this.finish();
    }
  }

  private finish() {
    this.buffer = Buffer.alloc(0);
    this.bodyLeft = null;
    const pending = this.pending;
    this.pending = null;
    pending?.resolve(this.status);
  }
}

/** True once a chunked body starting at `at` has its last (empty) chunk. */
function chunkedEnd(data: Buffer, at: number): boolean {
  for (;;) {
    const lineEnd = data.indexOf(LINE_END, at);
    if (lineEnd < 0) return false;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    const next = lineEnd + LINE_END.length + size + LINE_END.length;
    if (data.length < next) return false;
    if (size === 0) return true;
    at = next;
  }
}
