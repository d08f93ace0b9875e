import { chmod, lstat, mkdir, rmdir, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { BackupError } from './files';

/**
 * The data directory's control channel: a unix socket at DATA_DIR/run/control.sock, in a folder only this user may
 * enter (0700; the socket itself 0600). No network port: only processes of the machine's user that owns the data
 * reach it. Whoever listens on it holds the embedded database: the web process while it runs (it answers backup
 * requests), or `npm run backup`/`restore`/`admin` while they open the data directory themselves. PGlite has no lock of
 * its own (two processes on one data folder corrupt it), so the socket is also that lock: a second holder is refused.
 *
 * Protocol: one request line `{"command":"backup"}`, then one answer line `{"ok":true,"bytes":N}` followed by N bytes
 * (the backup file's contents), or `{"ok":false,"message":"…"}`.
 */
export type Holder = 'app' | 'backup' | 'restore' | 'admin';

const MAX_REQUEST_BYTES = 4096;
/** A client that says nothing is dropped after this long; a backup answer may take minutes on a large database. */
const REQUEST_TIMEOUT_MS = 10_000;
const ANSWER_TIMEOUT_MS = 10 * 60_000;
/** sun_path is 108 bytes on Linux (104 on macOS), the final NUL included. */
const MAX_SOCKET_PATH = 103;

const busyMessage: Record<Holder, string> = {
  app: 'Ops Hub is running on this data directory',
  backup: 'npm run backup is reading this data directory',
  restore: 'npm run restore is writing this data directory',
  admin: 'npm run admin is changing this data directory',
};

export const controlDir = (dataDir: string) => path.join(path.resolve(dataDir), 'run');
export const controlSocketPath = (dataDir: string) => path.join(controlDir(dataDir), 'control.sock');

/** The address to bind or connect: the absolute path, or the relative one when only that fits sun_path. */
function socketAddress(dataDir: string): string {
  const absolute = controlSocketPath(dataDir);
  if (Buffer.byteLength(absolute) <= MAX_SOCKET_PATH) return absolute;
  const relative = path.relative(process.cwd(), absolute);
  if (Buffer.byteLength(relative) <= MAX_SOCKET_PATH) return relative;
  throw new BackupError(
    `The path of DATA_DIR (${path.resolve(dataDir)}) is too long for its control socket (run/control.sock must fit ` +
      `in ${MAX_SOCKET_PATH} bytes): use a shorter DATA_DIR, or run from a folder close to it.`,
  );
}

export interface ControlChannel {
  /** The web process answers backup requests with this (until set, a request is told to try again). */
  serveBackups(make: () => Promise<Uint8Array>): void;
  /** Stops listening and removes the socket (and the run/ folder when it is empty and was made here). */
  close(): Promise<void>;
}

/** Creates run/ as 0700 (and insists on it: a folder of another owner or a symbolic link there is refused). */
async function prepareDir(dataDir: string): Promise<boolean> {
  const dir = controlDir(dataDir);
  const made = (await mkdir(dir, { recursive: true, mode: 0o700 })) !== undefined;
  const info = await lstat(dir);
  if (!info.isDirectory() || (process.getuid && info.uid !== process.getuid())) {
    throw new BackupError(`${dir} is not a folder of this user; remove it and try again.`);
  }
  await chmod(dir, 0o700);
  return made;
}

/** True when a live process listens at the address (a refused or absent socket is stale). */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Reads the one request line; null when the client sent something else or nothing in time. */
function readRequest(socket: Socket): Promise<{ command?: unknown } | null> {
  return new Promise((resolve) => {
    let buffer = '';
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\n');
      if (end < 0 && buffer.length <= MAX_REQUEST_BYTES) return;
      socket.removeAllListeners('data');
      socket.setTimeout(0);
      try {
        resolve(end < 0 ? null : (JSON.parse(buffer.slice(0, end)) as { command?: unknown }));
      } catch {
        resolve(null);
      }
    });
    socket.once('close', () => resolve(null));
    socket.on('error', () => {});
  });
}

function answer(socket: Socket, head: Record<string, unknown>, body?: Uint8Array) {
  socket.write(`${JSON.stringify(head)}\n`);
  if (body) socket.write(body);
  socket.end();
}

/**
 * Takes the data directory for `holder`: listens on its control socket, replacing a stale one (its process gone).
 * When a live process holds it, a BackupError names what holds it.
 */
export async function claimDataDir(dataDir: string, holder: Holder): Promise<ControlChannel> {
  const address = socketAddress(dataDir);
  const madeDir = await prepareDir(dataDir);
  const socketPath = controlSocketPath(dataDir);
  let make: (() => Promise<Uint8Array>) | undefined;

  const server = createServer((socket) => {
    void readRequest(socket).then(async (request) => {
      if (!request) return socket.destroy();
      if (request.command !== 'backup') return answer(socket, { ok: false, message: 'Unknown command.' });
      if (holder !== 'app') return answer(socket, { ok: false, message: `${busyMessage[holder]}; try again shortly.` });
      if (!make) return answer(socket, { ok: false, message: 'Ops Hub is starting; try again in a moment.' });
      try {
        const bytes = await make();
        answer(socket, { ok: true, bytes: bytes.byteLength }, bytes);
      } catch (err) {
        answer(socket, { ok: false, message: `The backup failed: ${err instanceof Error ? err.message : err}` });
      }
    });
  });

  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, address);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt > 0) throw err;
      if (await answers(address)) {
        throw new BackupError(
          `The data directory ${path.resolve(dataDir)} is in use by another process (it answers on ${socketPath}). ` +
            'Another Ops Hub, or npm run backup/restore/admin, holds it: stop that first.',
        );
      }
      await unlink(socketPath).catch(() => {}); // stale: the process that made it is gone
    }
  }
  await chmod(socketPath, 0o600);
  server.on('error', () => {}); // a failed accept must not take the process down

  return {
    serveBackups(fn) {
      make = fn;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(socketPath).catch(() => {});
      if (madeDir) await rmdir(controlDir(dataDir)).catch(() => {});
    },
  };
}

/**
 * Asks the web process holding the data directory for a backup. Null when nothing listens there (no app runs);
 * a BackupError with the holder's words when it refuses (another backup or a restore holds it).
 */
export async function requestBackup(dataDir: string): Promise<Uint8Array | null> {
  const address = socketAddress(dataDir);
  return new Promise((resolve, reject) => {
    const socket = connect(address);
    const chunks: Buffer[] = [];
    let received = 0;
    let connected = false;
    socket.setTimeout(ANSWER_TIMEOUT_MS, () =>
      socket.destroy(new BackupError('The running Ops Hub did not answer the backup request in 10 minutes.')),
    );
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ command: 'backup' })}\n`);
    });
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (!connected && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED')) resolve(null);
      else reject(err instanceof BackupError ? err : new BackupError(`The control channel failed: ${err.message}`));
    });
    socket.once('close', () => {
      if (!connected) return;
      const all = Buffer.concat(chunks, received);
      const end = all.indexOf(0x0a);
      let head: { ok?: boolean; bytes?: number; message?: string };
      try {
        head = JSON.parse(all.subarray(0, end < 0 ? all.length : end).toString('utf8'));
      } catch {
        return reject(new BackupError('The running Ops Hub closed the control channel without an answer.'));
      }
      if (!head.ok) return reject(new BackupError(head.message ?? 'The running Ops Hub refused the backup.'));
      const body = all.subarray(end + 1);
      if (body.byteLength !== head.bytes) {
        return reject(
          new BackupError(
            `The backup arrived incomplete (${body.byteLength} of ${head.bytes} bytes); nothing was kept.`,
          ),
        );
      }
      resolve(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
    });
  });
}
