/**
 * npm run bench: starts the app on seeded databases and prints, per page, the HTML and JavaScript shipped
 * (gzip) and server latency p50/p95 at 10 concurrent requests. Embedded PGlite: 2,000 servers + 5,000 items.
 * PostgreSQL (BENCH_DATABASE_URL, default the local server; a fresh database opshub_bench): 2,000 servers + 50,000 items.
 * The app runs as in production: `src/main.ts` in its own process, so the load loop here never shares its event loop.
 * Then the read page budgets of a real-size (1,000-word) item, in a table of their own: its weight beyond the
 * content, its latency against the same bytes served as a static file (on PostgreSQL at 5,000 items, before the
 * other 45,000 are seeded, and at 50,000), and on PostgreSQL Lighthouse mobile and a slow phone; and the same item
 * read with 20 linked servers against none (tests/bench/linked-servers.ts; alone: `npm run bench -- linked-servers`).
 * On PostgreSQL, then, what the permission filter costs a non-admin reader (tests/bench/permissions.ts).
 * `npm run bench -- permissions` runs that table alone (BENCH_ITEMS items, default 50,000); `npm run bench -- audit`
 * the audit trail's at 1,000,000 events (tests/bench/audit.ts); `npm run bench -- infrastructure` the server table at
 * 50,000 servers while rounds write (tests/bench/infrastructure.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { openPglite, openPostgres, type Database } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { loadAssets, type Assets } from '../../src/ui/assets';
import { itemHref } from '../../src/knowledge/shared';
import { freePort, launchBrowser } from '../helpers/browser';
import { lighthouseMobile } from './lighthouse';
import { latency, pageWeight } from './measure';
import { auditBench, printAuditBench } from './audit';
import { measureInfrastructure, printInfrastructure, seedInventory } from './infrastructure';
import { permissionCost, printPermissionCost } from './permissions';
import { linkedServersCost, seedLinkedCopy } from './linked-servers';
import { ReadBudgets } from './read-budgets';
import { latencyAgainstStatic, readPageWeight } from './read-page';
import { documentSeeder, seedAdmin, seedArticles, seedServers } from './seed';
import { slowPhone } from './slow-phone';
import { startMain, stopMain } from './main-process';

if (process.env.NODE_ENV !== 'production')
  throw new Error('run the bench with NODE_ENV=production (npm run bench does)');

interface Target {
  name: string;
  path: string;
  signedIn?: boolean;
  /** Only weigh the page (HTML + JS), no latency run. */
  weightOnly?: boolean;
  budget?: string;
}

const pages: Target[] = [
  { name: 'landing (signed out)', path: '/', signedIn: false },
  { name: 'dashboard', path: '/', budget: 'JS ≤ 25 KiB; p95 ≤ 50 ms PG, ≤ 100 ms embedded' },
  { name: 'knowledge base (grid)', path: '/knowledge-base', budget: 'JS ≤ 25 KiB' },
  { name: 'knowledge base (list)', path: '/knowledge-base?view=list', budget: 'JS ≤ 25 KiB' },
  { name: 'knowledge base (category)', path: '/knowledge-base?view=category', budget: 'JS ≤ 110 KiB' },
  { name: 'documents', path: '/documents', budget: 'JS ≤ 25 KiB' },
  { name: 'infrastructure', path: '/infrastructure', budget: 'JS ≤ 110 KiB' },
  {
    name: 'editor (new knowledge item)',
    path: '/knowledge-base/new?type=knowledge-base',
    weightOnly: true,
    budget: 'JS ≤ 380 KiB',
  },
  { name: 'Ops AI', path: '/ai', weightOnly: true },
  { name: 'team', path: '/team', weightOnly: true },
  { name: 'settings', path: '/settings', weightOnly: true },
  { name: 'GET /api/servers', path: '/api/servers', budget: 'p95 ≤ 50 ms PG' },
  { name: 'search: ordinary word', path: '/api/search?q=kerberos&limit=8', budget: 'p95 ≤ 30 ms PG' },
  { name: 'search: common word', path: '/api/search?q=server&limit=8', budget: 'p95 ≤ 100 ms PG' },
  { name: 'search: 3-letter prefix', path: '/api/search?q=rep&limit=8', budget: 'p95 ≤ 100 ms PG' },
];

/**
 * The steady state of a live server: statistics and visibility maps kept by autovacuum, and no bulk load's
 * worth of dirty pages still to be written while the pages are measured.
 */
async function settle(database: Database) {
  await database.db.execute(sql`vacuum analyze`);
  await database.db.execute(sql`checkpoint`);
}

/** Serves the seeded database from src/main.ts for the length of `measure`, then stops it whatever happened. */
async function withServer<T>(
  env: Record<string, string>,
  measure: (url: string, pid: number) => Promise<T>,
): Promise<T> {
  const port = await freePort();
  const server = await startMain(port, env);
  try {
    return await measure(`http://127.0.0.1:${port}`, server.pid!);
  } finally {
    await stopMain(server);
  }
}

/** One row of the pages table per page: weight and latency. */
async function measurePages(url: string, token: string, assets: Assets): Promise<string[]> {
  const rows: string[] = [];
  for (const page of pages) {
    const headers: Record<string, string> = page.signedIn === false ? {} : { Cookie: `ops_session=${token}` };
    const res = await fetch(url + page.path, { headers });
    const body = await res.text();
    if (res.status !== 200) {
      rows.push(`| ${page.name} | \`${page.path}\` | — | — | — | — | — | not available (${res.status}) |`);
      continue;
    }
    const isHtml = res.headers.get('content-type')?.includes('text/html');
    const weight = isHtml ? pageWeight(body, assets) : undefined;
    const timing = page.weightOnly ? undefined : await latency(url + page.path, headers);
    rows.push(
      `| ${page.name} | \`${page.path}\` | ${weight?.html ?? '—'} | ${weight?.initialJs ?? '—'} | ${weight?.allJs ?? '—'} | ${timing?.p50 ?? '—'} | ${timing?.p95 ?? '—'} | ${page.budget ?? ''}${timing?.failures ? ` (${timing.failures} failed)` : ''} |`,
    );
  }
  return rows;
}

const readBudgets = new ReadBudgets();

interface Run {
  label: string;
  database: Database;
  items: number;
  /** Items seeded before a first read page latency run (PostgreSQL: 5,000), the rest after it. */
  firstItems?: number;
  env: Record<string, string>;
  /** The read page's latency budgets (and the browser figures) are for this run. */
  postgres: boolean;
}

/** Seeds the database, closes it, serves it from src/main.ts (env names it) and measures every page. */
async function runOn(run: Run) {
  const { database, items, env, postgres } = run;
  const first = run.firstItems ?? items;
  console.error(`[bench] ${run.label}: migrating and seeding 2,000 servers and ${first} items…`);
  await runMigrations(database);
  const admin = await seedAdmin(database.db);
  await seedServers(database.db, 2000);
  const seedUpTo = documentSeeder(database.db, items, admin.id);
  await seedUpTo(first);
  const [article] = await seedArticles(database.db, admin.id);
  const readPage = { path: itemHref('knowledge', article.id, article.title), content: article.content };
  const linkedPath = await seedLinkedCopy(database.db, article.id);
  const { token } = await createSession(database.db, admin.id);
  await settle(database);
  const count = (n: number) => `${n.toLocaleString('en')} items`;
  const assets = loadAssets();

  if (first < items) {
    await withServer(env, (url) =>
      measureReadLatency(`${run.label}, ${count(first)}`, url, readPage.path, token, assets, postgres),
    );
    console.error(`[bench] ${run.label}: seeding the other ${items - first} items…`);
    await seedUpTo(items);
    await settle(database);
  }
  await database.close();

  const rows = await withServer(env, async (url) => {
    const rows = await measurePages(url, token, assets);
    await measureReadPage(`${run.label}, ${count(items)}`, url, readPage, token, assets, postgres);
    const paths = { none: readPage.path, linked: linkedPath };
    await measureLinkedServers(`${run.label}, ${count(items)}`, url, paths, token, postgres);
    return rows;
  });
  console.log(`\n### ${run.label}: 2,000 servers, ${items.toLocaleString('en')} items\n`);
  console.log('| page | path | HTML gzip | JS up front (gzip) | JS in all (gzip) | p50 ms | p95 ms | budget |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  // Last: it restricts items of this database (the tables above read it as it was seeded).
  if (postgres && env.DATABASE_URL) {
    const label = `${run.label}, ${count(items)}`;
    printPermissionCost(label, await permissionCost(env.DATABASE_URL, (measure) => withServer(env, measure)));
  }
}

/** The read page with 20 linked servers against the same item with none (issue 23). */
async function measureLinkedServers(
  run: string,
  url: string,
  paths: { none: string; linked: string },
  token: string,
  postgres: boolean,
) {
  const { none: nonePath, linked: linkedPath } = paths;
  const headers = { Cookie: `ops_session=${token}` };
  const statuses = await Promise.all(
    [nonePath, linkedPath].map((p) => fetch(url + p, { headers }).then((r) => r.status)),
  );
  if (statuses.some((s) => s !== 200)) {
    const why = `answered ${statuses.join(' / ')}`;
    readBudgets.notMeasured(run, 'read page with 20 linked servers', '≤ 1.10× on PostgreSQL', why);
    return;
  }
  readBudgets.linkedServers(run, await linkedServersCost(url, nonePath, linkedPath, headers), postgres);
}

/**
 * `npm run bench -- linked-servers`: that measure alone, on embedded PGlite and on a fresh PostgreSQL database,
 * each with 2,000 servers and BENCH_ITEMS items (default 5,000).
 */
async function linkedServersOnly(items: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'opshub-bench-db-'));
  const pg = await freshPostgres(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const targets: { label: string; database: Database; env: Record<string, string>; postgres: boolean }[] = [
    { label: 'Embedded PGlite', database: await openPglite(dataDir), env: { DATA_DIR: dataDir }, postgres: false },
    { label: 'PostgreSQL 15', database: pg.database, env: { DATABASE_URL: pg.url }, postgres: true },
  ];
  for (const { label, database, env, postgres } of targets) {
    console.error(`[bench] ${label}: migrating and seeding 2,000 servers and ${items} items…`);
    await runMigrations(database);
    const admin = await seedAdmin(database.db);
    await seedServers(database.db, 2000);
    await documentSeeder(database.db, items, admin.id)(items);
    const [article] = await seedArticles(database.db, admin.id);
    const linkedPath = await seedLinkedCopy(database.db, article.id);
    const { token } = await createSession(database.db, admin.id);
    await settle(database);
    await database.close();
    const paths = { none: itemHref('knowledge', article.id, article.title), linked: linkedPath };
    const run = `${label}, ${items.toLocaleString('en')} items`;
    await withServer(env, (url) => measureLinkedServers(run, url, paths, token, postgres));
  }
}

/** `npm run bench -- permissions`: the permission filter's table alone, on a fresh PostgreSQL database. */
async function permissionsOnly(items: number) {
  const pg = await freshPostgres(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  console.error(`[bench] permissions: migrating and seeding 2,000 servers and ${items} items…`);
  await runMigrations(pg.database);
  const admin = await seedAdmin(pg.database.db);
  await seedServers(pg.database.db, 2000);
  await documentSeeder(pg.database.db, items, admin.id)(items);
  await settle(pg.database);
  await pg.database.close();
  const env = { DATABASE_URL: pg.url };
  const label = `PostgreSQL 15, ${items.toLocaleString('en')} items`;
  printPermissionCost(label, await permissionCost(pg.url, (measure) => withServer(env, measure)));
}

/** The read page's latency and the same bytes as a static file, back to back. */
async function measureReadLatency(
  run: string,
  url: string,
  pagePath: string,
  token: string,
  assets: Assets,
  postgres: boolean,
) {
  const headers = { Cookie: `ops_session=${token}` };
  const res = await fetch(url + pagePath, { headers });
  const html = await res.text();
  if (res.status !== 200) {
    readBudgets.notMeasured(
      run,
      'read page: latency',
      'p95 ≤ 30 ms on PostgreSQL',
      `${pagePath} answered ${res.status}`,
    );
    return undefined;
  }
  readBudgets.latency(run, await latencyAgainstStatic(url, pagePath, headers, html, assets.dir), postgres);
  return html;
}

/** Every read page budget: weight, latency against a static file, and (on PostgreSQL) Lighthouse and a slow phone. */
async function measureReadPage(
  run: string,
  url: string,
  page: { path: string; content: string },
  token: string,
  assets: Assets,
  postgres: boolean,
) {
  const html = await measureReadLatency(run, url, page.path, token, assets, postgres);
  if (html === undefined) return;
  readBudgets.weight(run, readPageWeight(html, page.content, assets));
  if (!postgres) return;
  const cookie = `ops_session=${token}`;
  console.error('[bench] Lighthouse on the read page…');
  await lighthouseMobile(url + page.path, { Cookie: cookie }).then(
    (result) => readBudgets.lighthouse(run, result),
    (err: Error) => readBudgets.notMeasured(run, 'Lighthouse mobile, performance', '≥ 0.98', err.message),
  );
  console.error('[bench] the read page on a slow phone, 3 runs…');
  await phoneRuns(url + page.path, cookie).then(
    (result) => readBudgets.phone(run, result.median, result.runs),
    (err: Error) =>
      readBudgets.notMeasured(run, 'slow phone: title + first paragraph on screen', '≤ 1.0 s', err.message),
  );
}

async function phoneRuns(pageUrl: string, cookie: string) {
  const browser = await launchBrowser();
  try {
    return await slowPhone(browser, pageUrl, cookie);
  } finally {
    await browser.close();
  }
}

/** A fresh database (opshub_bench unless named) on the server at `url`; returns it opened and its URL. */
async function freshPostgres(url: string, name = 'opshub_bench'): Promise<{ database: Database; url: string }> {
  const admin = openPostgres(url, { max: 1 });
  await admin.pool!.query(`drop database if exists ${name} with (force)`);
  await admin.pool!.query(`create database ${name}`);
  await admin.close();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return { database: openPostgres(target.toString(), { max: 10 }), url: target.toString() };
}

/** `npm run bench -- audit`: the audit trail's table alone, on a fresh PostgreSQL database (tests/bench/audit.ts). */
async function auditOnly() {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const pg = await freshPostgres(url, 'opshub_bench_audit');
  await runMigrations(pg.database);
  await pg.database.close();
  const env = { DATABASE_URL: pg.url };
  printAuditBench('PostgreSQL 15', await auditBench(pg.url, (measure) => withServer(env, measure)));
}

/** `npm run bench -- infrastructure`: the server table at 50,000 servers during rounds (tests/bench/infrastructure.ts). */
async function infrastructureOnly() {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const pg = await freshPostgres(url, 'opshub_bench_infra');
  const token = await seedInventory(pg.database);
  await settle(pg.database);
  await pg.database.close();
  const env = { DATABASE_URL: pg.url };
  const rows = await withServer(env, (appUrl) => measureInfrastructure(appUrl, pg.url, token));
  printInfrastructure('PostgreSQL 15', rows);
}

const only = process.argv[2];
if (only === 'infrastructure') {
  await infrastructureOnly();
  process.exit(0);
}
if (only === 'audit') {
  await auditOnly();
  process.exit(0);
}
if (only === 'linked-servers') {
  await linkedServersOnly(Number(process.env.BENCH_ITEMS ?? 5000));
  readBudgets.print();
  process.exit(0);
}
if (only === 'permissions') {
  await permissionsOnly(Number(process.env.BENCH_ITEMS ?? 50_000));
  process.exit(0);
}
if (only !== 'postgres') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'opshub-bench-db-'));
  const database = await openPglite(dataDir);
  await runOn({ label: 'Embedded PGlite', database, items: 5000, env: { DATA_DIR: dataDir }, postgres: false });
}
if (only !== 'pglite') {
  const pg = await freshPostgres(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const env = { DATABASE_URL: pg.url };
  await runOn({ label: 'PostgreSQL 15', database: pg.database, items: 50_000, firstItems: 5000, env, postgres: true });
}
readBudgets.print();
process.exit(0);
