/**
 * One shared health-check round on PostgreSQL, by 1 worker and then by 2 workers (separate processes):
 *   npx tsx tests/bench/health-round.ts          (BENCH_DATABASE_URL, default the local server; fresh database
 *                                                 opshub_bench_round; BENCH_SERVERS, default 20,000)
 * A quarter of the servers are silent (loopback listeners in a process that never accepts: each probe waits
 * for the 3 s timeout); the rest point at loopback listeners on 127.0.0.1–4 that count the connections they
 * accept, so each answering server is seen probed exactly once per round. HEALTH_CHECK_CONCURRENCY (BENCH_
 * CONCURRENCY, default 200) probes at a time per worker. The servers start in their steady state (answering:
 * online; silent: offline after two failed rounds), so both rounds store the same kind of writes.
 * Budget (issue 24): ≤ 60 s with 2 workers, about half the time of 1 worker.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config';
import { openPostgres, queryRows, type Database } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { servers } from '../../src/db/schema';
import { runRoundShare } from '../../src/servers/round';
import { silentPort } from '../servers/loopback';

const TOTAL = Number(process.env.BENCH_SERVERS ?? 20_000);
const SILENT = Math.round(TOTAL / 4);
const CONCURRENCY = process.env.BENCH_CONCURRENCY ?? '200';
const HOSTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];
const PORTS_PER_HOST = 25;
const SILENT_HOSTS = ['127.0.0.91', '127.0.0.92', '127.0.0.93', '127.0.0.94', '127.0.0.95'];
const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function benchUrl(): string {
  const target = new URL(baseUrl);
  target.pathname = '/opshub_bench_round';
  return target.toString();
}

function workerConfig() {
  return loadConfig({
    NODE_ENV: 'test',
    APP_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    DATABASE_URL: benchUrl(),
    HEALTH_CHECK_ALLOW_CIDRS: '127.0.0.0/8',
    HEALTH_CHECK_CONCURRENCY: CONCURRENCY,
  });
}

/** `--worker <id>`: one worker process: connects, says "ready", runs its share of the slot it is given, reports. */
async function workerMain(id: string) {
  const config = workerConfig();
  const database = openPostgres(benchUrl(), { max: 20 });
  await queryRows(database.db, sql`select 1`);
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    const slotAt = new Date(line.trim());
    const share = await runRoundShare({ db: database.db, config }, { slotAt, workerId: id });
    process.stdout.write(
      `${JSON.stringify({ id, checked: share.checked, online: share.online, offline: share.offline })}\n`,
    );
    break;
  }
  await database.close();
  process.exit(0);
}

interface Counting {
  server: Server;
  host: string;
  port: number;
  accepted: number;
}

async function countingListener(host: string): Promise<Counting> {
  const entry = { host, port: 0, accepted: 0 } as Counting;
  entry.server = createServer((socket) => {
    entry.accepted++;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    entry.server.once('error', reject);
    entry.server.listen({ port: 0, host, backlog: 4096 }, resolve);
  });
  entry.port = (entry.server.address() as AddressInfo).port;
  return entry;
}

async function freshDatabase(): Promise<Database> {
  const admin = openPostgres(baseUrl, { max: 1 });
  await admin.pool!.query('drop database if exists opshub_bench_round with (force)');
  await admin.pool!.query('create database opshub_bench_round');
  await admin.close();
  const database = openPostgres(benchUrl(), { max: 5 });
  await runMigrations(database);
  return database;
}

async function seed(database: Database, answering: Counting[], silent: { host: string; port: number }[]) {
  const expected = new Map<Counting, number>();
  for (let start = 0; start < TOTAL; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, TOTAL - start) }, (_, k) => {
      const i = start + k;
      const name = `bench-${String(i).padStart(5, '0')}`;
      if (i < SILENT) {
        const s = silent[i % silent.length];
        return { name, ipAddress: s.host, monitorPort: s.port, status: 'offline' as const, consecutiveFailures: 2 };
      }
      const l = answering[i % answering.length];
      expected.set(l, (expected.get(l) ?? 0) + 1);
      return { name, ipAddress: l.host, monitorPort: l.port, status: 'online' as const };
    });
    await database.db.insert(servers).values(rows);
  }
  return expected;
}

function startWorker(id: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--worker', id], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
  return { child, next };
}

/** One round by `n` worker processes; answers the seconds from "go" to the last report. */
async function round(n: number, slotAt: Date): Promise<{ seconds: number; shares: number[] }> {
  const workers = Array.from({ length: n }, (_, i) => startWorker(`bench-w${i + 1}`));
  await Promise.all(workers.map((w) => w.next()));
  const started = performance.now();
  const reports = workers.map((w) => w.next());
  for (const w of workers) w.child.stdin.write(`${slotAt.toISOString()}\n`);
  const shares = (await Promise.all(reports)).map((line) => (JSON.parse(line) as { checked: number }).checked);
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(
    workers.map((w) => new Promise((r) => (w.child.exitCode !== null ? r(null) : w.child.once('exit', r)))),
  );
  return { seconds, shares };
}

async function main() {
  const database = await freshDatabase();
  const answering: Counting[] = [];
  for (const host of HOSTS) for (let p = 0; p < PORTS_PER_HOST; p++) answering.push(await countingListener(host));
  const silentPorts = await Promise.all(SILENT_HOSTS.map((h) => silentPort(h)));
  try {
    const expected = await seed(
      database,
      answering,
      silentPorts.map((s, i) => ({ host: SILENT_HOSTS[i], port: s.port })),
    );
    console.log(
      `${TOTAL} servers (${TOTAL - SILENT} answering on ${answering.length} counting listeners, ${SILENT} silent), PostgreSQL, ${CONCURRENCY} probes at a time per worker`,
    );
    const results: { n: number; seconds: number }[] = [];
    const base = Math.floor(Date.now() / 60_000) * 60_000;
    for (const [k, n] of [1, 2].entries()) {
      for (const l of answering) l.accepted = 0;
      const { seconds, shares } = await round(n, new Date(base + k * 60_000));
      const wrong = answering.filter((l) => l.accepted !== (expected.get(l) ?? 0)).length;
      const accepted = answering.reduce((sum, l) => sum + l.accepted, 0);
      results.push({ n, seconds });
      console.log(
        `${n} worker${n > 1 ? 's' : ''}: ${seconds.toFixed(1)} s; probed ${shares.join(' + ')} = ${shares.reduce((a, b) => a + b, 0)} servers; ` +
          `${accepted} connections at the listeners for ${TOTAL - SILENT} answering servers (${wrong ? `${wrong} listeners off` : 'each exactly once'})`,
      );
    }
    const [row] = await queryRows<{ most: number; servers: number }>(
      database.db,
      sql`select max(n)::int as most, count(*)::int as servers from (select count(*) as n from health_checks group by server_id) c`,
    );
    console.log(`health_checks: ${row.servers} servers, at most ${row.most} rows each (one per round)`);
    console.log(
      `ratio 1 worker / 2 workers: ${(results[0].seconds / results[1].seconds).toFixed(2)} (budget: ≤ 60 s with 2 workers, about half of 1)`,
    );
  } finally {
    for (const l of answering) l.server.close();
    for (const s of silentPorts) s.close();
    await database.close();
  }
}

const at = process.argv.indexOf('--worker');
if (at >= 0) await workerMain(process.argv[at + 1]);
else await main();
