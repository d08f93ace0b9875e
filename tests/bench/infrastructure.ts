/**
 * `npm run bench -- infrastructure`: the server table at 50,000 servers on PostgreSQL while rounds write (issue 24).
 * A loop in this process keeps doing what health rounds do to the servers table (last_health_check on every
 * server in turn, a status change now and then) while /infrastructure and the paged API are measured (p95 at 10 at
 * once), and, in the same run, the old whole-list GET /api/servers that every status change invalidates.
 */
import { sql } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { openPostgres, type Database } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { latency } from './measure';
import { seedAdmin, seedServers } from './seed';

export const INFRA_SERVERS = Number(process.env.BENCH_SERVERS ?? 50_000);
/** Servers a "round" batch writes, and the pause between batches (about 2,500 writes a second in all). */
const BATCH = 250;
const PAUSE_MS = 100;

const targets = [
  { name: '/infrastructure (first page)', path: '/infrastructure', budget: 'p95 ≤ 200 ms' },
  { name: 'paged API, first page', path: '/api/servers?page=1&pageSize=50' },
  { name: 'paged API, page 500 (deep)', path: '/api/servers?page=500&pageSize=50' },
  { name: 'paged API, status=offline, page 2', path: '/api/servers?page=2&status=offline' },
  { name: 'paged API, environment=staging', path: '/api/servers?page=1&environment=staging' },
  { name: 'paged API, sorted by status', path: '/api/servers?page=1&sort=status' },
  { name: 'paged API, search "pos" (spec fields)', path: '/api/servers?page=1&q=pos' },
  { name: '/infrastructure?q=app-4 (search)', path: '/infrastructure?q=app-4' },
];

/** What rounds do to the table, over and over, until stopped: returns the stop function and the write count. */
function roundWriter(url: string) {
  const database = openPostgres(url, { max: 2 });
  let running = true;
  let written = 0;
  let changed = 0;
  const done = (async () => {
    while (running) {
      await database.db.execute(sql`
        with due as (
          select id from servers order by last_health_check nulls first limit ${BATCH} for update skip locked
        )
        update servers s
           set last_health_check = now(),
               status = case when random() < 0.04 then (array['online', 'offline', 'warning'])[1 + floor(random() * 3)::int]
                             else s.status end,
               status_changed_at = case when random() < 0.04 then now() else s.status_changed_at end
          from due where s.id = due.id`);
      written += BATCH;
      changed += Math.round(BATCH * 0.04);
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  })();
  const started = performance.now();
  return {
    async stop() {
      running = false;
      await done;
      await database.close();
      const seconds = (performance.now() - started) / 1000;
      return { perSecond: Math.round(written / seconds), changedPerSecond: Math.round(changed / seconds) };
    },
  };
}

export interface InfraRow {
  name: string;
  path: string;
  p50: string;
  p95: string;
  failures: number;
  budget?: string;
}

/** Seeds `database` (fresh) with the inventory and an admin; returns the admin's session token. */
export async function seedInventory(database: Database): Promise<string> {
  await runMigrations(database);
  const admin = await seedAdmin(database.db);
  console.error(`[bench] infrastructure: seeding ${INFRA_SERVERS.toLocaleString('en')} servers…`);
  await seedServers(database.db, INFRA_SERVERS);
  const { token } = await createSession(database.db, admin.id);
  return token;
}

/** Measures every target and the old whole list while the round writer runs against `databaseUrl`. */
export async function measureInfrastructure(url: string, databaseUrl: string, token: string) {
  const headers = { Cookie: `ops_session=${token}` };
  for (const t of targets) {
    const res = await fetch(url + t.path, { headers });
    if (res.status !== 200) throw new Error(`${t.path} answered ${res.status}`);
    await res.arrayBuffer();
  }
  const writer = roundWriter(databaseUrl);
  const rows: InfraRow[] = [];
  try {
    for (const t of targets) {
      console.error(`[bench] infrastructure: ${t.name}…`);
      rows.push({ ...t, ...(await latency(url + t.path, headers)) });
    }
    console.error('[bench] infrastructure: the old whole list (GET /api/servers), 12 requests 2 at once…');
    const old = await latency(`${url}/api/servers`, headers, 2, 12, 2);
    rows.push({ name: 'old: GET /api/servers (whole list, rebuilt on every change)', path: '/api/servers', ...old });
  } finally {
    const rate = await writer.stop();
    console.error(
      `[bench] infrastructure: the round writer wrote ${rate.perSecond} servers/s (${rate.changedPerSecond} status changes/s)`,
    );
    rows.push({
      name: `round writer: servers written a second (status changes a second)`,
      path: '—',
      p50: String(rate.perSecond),
      p95: `(${rate.changedPerSecond})`,
      failures: 0,
    });
  }
  return rows;
}

export function printInfrastructure(label: string, rows: InfraRow[]) {
  console.log(`\n### ${label}: ${INFRA_SERVERS.toLocaleString('en')} servers, during rounds\n`);
  console.log('| request | path | p50 ms | p95 ms | budget |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | \`${r.path}\` | ${r.p50} | ${r.p95} | ${r.budget ?? ''}${r.failures ? ` (${r.failures} failed)` : ''} |`,
    );
  }
  const page = rows.find((r) => r.path === '/infrastructure');
  const old = rows.find((r) => r.path === '/api/servers');
  if (page && old)
    console.log(`\nOld whole list p95 ÷ /infrastructure p95: ${(Number(old.p95) / Number(page.p95)).toFixed(1)}×`);
}
