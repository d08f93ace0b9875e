import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/browser';

/**
 * A PostgreSQL server of our own for tests that kill, freeze or restart the database: never the shared
 * server of TEST_DATABASE_URL, which other tests use at the same time. Runs as the "postgres" user when
 * the tests run as root (PostgreSQL refuses to run as root).
 */
export interface PrivatePostgres {
  url: string;
  port: number;
  /** kill -9 of the postmaster (its backends exit when they notice). */
  kill(): Promise<void>;
  /** Starts the server again on the same data and port. */
  start(): Promise<void>;
  /** SIGSTOP / SIGCONT of the postmaster and every backend: a database that answers nothing (the kernel still accepts connections). */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  return version ? path.join(root, version, 'bin') : undefined;
}

/** Why a private server cannot run here (no binaries), or undefined when it can. */
export function privatePostgresUnavailable(): string | undefined {
  const bin = binDir();
  return bin && existsSync(path.join(bin, 'initdb'))
    ? undefined
    : 'PostgreSQL server binaries (initdb, postgres) are not installed';
}

/** uid/gid to run PostgreSQL as: the "postgres" user when we are root, else ourselves. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir()!;
  const user = runAs();
  const dir = mkdtempSync(path.join(tmpdir(), 'opshub-pg-'));
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!);
  const data = path.join(dir, 'data');
  execFileSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
    ...user,
    stdio: 'ignore',
  });
  const port = await freePort();
  let server: ChildProcess | undefined;

  const pids = (): number[] => {
    if (!server?.pid) return [];
    let children: number[] = [];
    try {
      children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.pid)])
        .toString()
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      // ps exits 1 when there are none
    }
    return [server.pid, ...children];
  };

  async function start(): Promise<void> {
    const child = spawn(
      path.join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'fsync=off', '-c', 'max_connections=40'],
      {
        ...user,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    server = child;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (d) => {
        log += d;
        if (log.includes('ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`postgres exited ${code}: ${log}`)));
    });
  }

  /** A process that has not exited (a zombie has). */
  const running = (pid: number) => {
    try {
      return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
    } catch {
      return false;
    }
  };

  const exited = (child: ChildProcess) =>
    new Promise<void>((r) =>
      child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()),
    );

  /** SIGCONT to every process (a backend may exit between the listing and the signal). */
  function thaw() {
    for (const pid of pids()) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already gone
      }
    }
  }
  /** Immediate shutdown; also when the test process exits without stop(), so no server outlives it. */
  function quit() {
    thaw();
    server?.kill('SIGQUIT');
  }
  process.once('exit', quit);

  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    async kill() {
      const child = server!;
      const backends = pids().slice(1);
      child.kill('SIGKILL');
      await exited(child);
      // Orphaned backends hold the shared memory (a restart refuses it) until they notice the postmaster is gone.
      for (let i = 0; i < 200 && backends.some(running); i++) await new Promise((r) => setTimeout(r, 50));
    },
    freeze() {
      for (const pid of pids()) process.kill(pid, 'SIGSTOP');
    },
    thaw,
    async stop() {
      process.removeListener('exit', quit);
      const child = server;
      if (child && child.exitCode === null && child.signalCode === null) {
        quit();
        await exited(child);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
