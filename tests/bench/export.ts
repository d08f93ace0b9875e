/**
 * The whole-space export on PostgreSQL, served by src/main.ts in its own process:
 *   npx tsx tests/bench/export.ts      (BENCH_DATABASE_URL, default the local server; fresh database opshub_bench_export;
 *                                       BENCH_ITEMS knowledge items, default 50,000)
 * 1 in 25 items links one of 100 stored images (100 KiB each, incompressible), so the zip carries images (once each,
 * under images/) linked from markdown in every category folder. The whole space is exported at a fifth of BENCH_ITEMS and at all of them (twice
 * each, one server), sampling the server's RSS every 20 ms. Budget (issue 25): flat memory: the
 * full space may not peak more than 48 MiB above the fifth (holding the zip would take its size, over 100 MiB, more).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { createSession } from '../../src/auth/sessions';
import { openPostgres, queryRows, type Db } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { objects } from '../../src/db/schema';
import { freePort } from '../helpers/browser';
import { documentSeeder, seedAdmin } from './seed';
import { startMain, stopMain } from './main-process';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 50_000);
const IMAGES = 100;
const IMAGE_BYTES = 100 * 1024;
const FLAT_MARGIN_MIB = 48;
const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const mib = (kib: number) => (kib / 1024).toFixed(1);

async function freshDatabase() {
  const admin = openPostgres(baseUrl, { max: 1 });
  await admin.pool!.query('drop database if exists opshub_bench_export with (force)');
  await admin.pool!.query('create database opshub_bench_export');
  await admin.close();
  const target = new URL(baseUrl);
  target.pathname = '/opshub_bench_export';
  const database = openPostgres(target.toString(), { max: 5, statement_timeout: 0, query_timeout: 0 });
  await runMigrations(database);
  return { database, url: target.toString() };
}

/** Downloads an export while sampling the server's RSS; bytes, seconds, time to the first bytes, RSS before and peak. */
async function download(url: string, cookie: string, pid: number, keep: boolean) {
  const before = rssKiB(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKiB(pid));
  }, 20);
  const start = performance.now();
  let first = 0;
  let bytes = 0;
  const chunks: Uint8Array[] = [];
  try {
    const res = await fetch(url, { headers: { Cookie: cookie } });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (!first) first = performance.now() - start;
      bytes += chunk.byteLength;
      if (keep) chunks.push(chunk);
    }
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, rssKiB(pid));
  const files = keep ? Object.keys(unzipSync(Buffer.concat(chunks))) : [];
  return { bytes, seconds: (performance.now() - start) / 1000, first, before, peak, files };
}

/** The knowledge items of a space seeded to `knowledge` items (documentSeeder puts every fifth item in documents). */
const seededTotal = (knowledge: number) => Math.ceil(knowledge * 1.25);

/** 1 in 25 knowledge items (of those not yet given one) links one of the images. */
async function linkImages(db: Db, ids: string[]) {
  await db.execute(sql`
    update documents d set content = d.content || E'\n\n![diagram](/objects/' || (${`{${ids.join(',')}}`}::uuid[])[1 + (n.k / 25) % ${IMAGES}] || ')'
    from (select id, row_number() over (order by created_at) as k from documents where space = 'knowledge') n
    where n.id = d.id and n.k % 25 = 0 and d.content not like '%/objects/%'`);
  await db.execute(sql`vacuum analyze`);
}

async function main() {
  const { database, url } = await freshDatabase();
  const db = database.db;
  const admin = await seedAdmin(db);
  const cookie = `ops_session=${(await createSession(db, admin.id)).token}`;
  const ids: string[] = [];
  for (let i = 0; i < IMAGES; i++) {
    const data = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(IMAGE_BYTES - 8)]);
    const [row] = await db
      .insert(objects)
      .values({ ownerId: admin.id, contentType: 'image/png', size: data.length, data, visibility: 'public' })
      .returning({ id: objects.id });
    ids.push(row.id);
  }
  const seedUpTo = documentSeeder(db, seededTotal(ITEMS), admin.id);
  const rows: string[] = [];
  const load = os.loadavg()[0].toFixed(1);
  const results = [];
  // A fifth of the space, then all of it, from one server (warmed by the first runs), each export run twice.
  const port = await freePort();
  const server = await startMain(port, { DATABASE_URL: url });
  try {
    for (const knowledge of [ITEMS / 5, ITEMS]) {
      console.error(`[bench] export: seeding up to ${knowledge.toLocaleString('en')} knowledge items…`);
      await seedUpTo(seededTotal(knowledge));
      await linkImages(db, ids);
      const [{ total }] = await queryRows<{ total: number }>(
        db,
        sql`select count(*)::int as total from documents where space = 'knowledge' and deleted_at is null`,
      );
      for (const run of [1, 2]) {
        const r = await download(`http://127.0.0.1:${port}/api/export?space=knowledge`, cookie, server.pid!, run === 2);
        results.push({ total, ...r });
        const files = r.files.length
          ? `, ${r.files.filter((f) => f.endsWith('.md')).length.toLocaleString('en')} .md + ${r.files.filter((f) => !f.endsWith('.md')).length} images`
          : '';
        rows.push(
          `| ${total.toLocaleString('en')} items (run ${run}): ${mib(r.bytes / 1024)} MiB${files} in ${r.seconds.toFixed(1)} s, first bytes after ${r.first.toFixed(0)} ms | ${mib(r.before)} MiB | ${mib(r.peak)} MiB | |`,
        );
      }
    }
  } finally {
    await stopMain(server);
  }
  await database.close();
  const small = Math.max(results[0].peak, results[1].peak);
  const large = Math.max(results[2].peak, results[3].peak);
  const excess = large - small;
  const flat = excess <= FLAT_MARGIN_MIB * 1024 ? 'met' : '**MISSED**';
  rows.push(
    `| flat memory: peak(${ITEMS.toLocaleString('en')}) − peak(${(ITEMS / 5).toLocaleString('en')}) | ${mib(excess)} MiB | | ≤ ${FLAT_MARGIN_MIB} MiB ${flat} |`,
  );
  rows.push(
    `| load average (1 min) before / after | ${load} / ${os.loadavg()[0].toFixed(1)} | | ${os.cpus().length} cores |`,
  );
  console.log(
    `\n### Whole-space export, ${(ITEMS / 5).toLocaleString('en')} and ${ITEMS.toLocaleString('en')} knowledge items (PostgreSQL)\n`,
  );
  console.log('| export | server RSS before | peak RSS | budget |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
