/**
 * What the permission filter costs (issue 21): the p95 of the lists, the dashboard and search for a reader who is
 * not an admin, on the same data without and with restricted items. About 1% of the items (every 100th, among them
 * the newest) become restricted to five owners, with shares (live, revoked, expired) to the reader and to others.
 * The two states alternate, page by page over five rounds, on the served database, and each state's median p95 is compared:
 * the budget is at most 10% more with restricted items. The admin's p95 (no filter at all) is printed beside them.
 */
import { sql } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { openPostgres, queryRows, type Db } from '../../src/db/client';
import { users } from '../../src/db/schema';
import { latency } from './measure';

const PAGES = [
  { name: 'knowledge base (list)', path: '/knowledge-base?view=list' },
  { name: 'documents', path: '/documents' },
  { name: 'dashboard', path: '/' },
  { name: 'search: ordinary word', path: '/api/search?q=kerberos&limit=8' },
  { name: 'search: common word', path: '/api/search?q=server&limit=8' },
  { name: 'search page: common word', path: '/search?q=server' },
];
const ROUNDS = 5;
const BUDGET_RATIO = 1.1;
const OWNERS = 5;

type WithServer = <T>(measure: (url: string) => Promise<T>) => Promise<T>;

async function signedInUser(db: Db, email: string, role: 'admin' | 'editor'): Promise<{ id: string; cookie: string }> {
  const [user] = await db
    .insert(users)
    .values({ email, firstName: 'Bench', lastName: role, role, isEmailVerified: true, accountStatus: 'active' })
    .returning({ id: users.id });
  const { token } = await createSession(db, user.id);
  return { id: user.id, cookie: `ops_session=${token}` };
}

/**
 * Picks every 100th item (by creation, so some are among the newest) as the restricted set, gives it five owners
 * and shares: the reader holds a live read share on every 10th, a revoked one and an expired one on others, and
 * the owners share among themselves. Visibility itself is switched by setRestricted().
 */
async function seedRestrictedSet(db: Db, readerId: string, ownerIds: string[]): Promise<number> {
  await db.execute(sql`create table bench_restricted as
    select id, n from (select id, row_number() over (order by created_at desc) as n from documents) r
    where n % 100 = 1`);
  for (const [k, ownerId] of ownerIds.entries()) {
    await db.execute(sql`update documents d set owner_id = ${ownerId}
      from bench_restricted r where r.id = d.id and (r.n / 100) % ${ownerIds.length} = ${k}`);
  }
  const week = sql`now() - interval '7 days'`;
  await db.execute(sql`insert into document_shares (document_id, shared_with_user_id, permission, revoked_at, expires_at)
    select id, ${readerId}, 'read', case when n % 1000 = 301 then ${week} end, case when n % 1000 = 501 then ${week} end
    from bench_restricted where n % 1000 in (1, 301, 501)`);
  for (const [k, ownerId] of ownerIds.entries()) {
    await db.execute(sql`insert into document_shares (document_id, shared_with_user_id, permission)
      select id, ${ownerId}, 'write' from bench_restricted where (n / 100) % ${ownerIds.length} <> ${k} and n % 700 = 1`);
  }
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from bench_restricted`);
  return Number(row.n);
}

/** Switches the restricted set on or off (the same rows, owners and shares either way) and settles the tables. */
async function setRestricted(db: Db, on: boolean) {
  const visibility = on ? 'restricted' : 'everyone';
  await db.execute(sql`update documents d set visibility = ${visibility} from bench_restricted r where r.id = d.id`);
  await db.execute(sql`vacuum analyze documents`);
  await db.execute(sql`vacuum analyze document_shares`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Measures on the database at `databaseUrl` (PostgreSQL: the bench changes it while the app serves it) and returns
 * the table's rows.
 */
export async function permissionCost(databaseUrl: string, withServer: WithServer): Promise<string[]> {
  const database = openPostgres(databaseUrl, { max: 2 });
  const db = database.db;
  try {
    const reader = await signedInUser(db, 'bench-reader@example.com', 'editor');
    const admin = await signedInUser(db, 'bench-admin-2@example.com', 'admin');
    const owners: string[] = [];
    for (let k = 0; k < OWNERS; k++) owners.push((await signedInUser(db, `bench-owner-${k}@example.com`, 'editor')).id);
    const restricted = await seedRestrictedSet(db, reader.id, owners);
    console.error(`[bench] permissions: ${restricted} restricted items, ${ROUNDS} rounds without and with…`);
    const p95 = PAGES.map(() => ({ without: [] as number[], with: [] as number[], admin: [] as number[] }));
    let state: boolean | undefined;
    const switchTo = async (on: boolean) => {
      if (state !== on) await setRestricted(db, on);
      state = on;
    };
    await withServer(async (url) => {
      // Each page's two states back to back, in alternating order: a load that comes and goes (another process on
      // the machine) falls on both alike.
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, page] of PAGES.entries()) {
          for (const on of state === undefined ? [false, true] : [state, !state]) {
            await switchTo(on);
            p95[i][on ? 'with' : 'without'].push(
              Number((await latency(url + page.path, { Cookie: reader.cookie })).p95),
            );
            if (on) p95[i].admin.push(Number((await latency(url + page.path, { Cookie: admin.cookie })).p95));
          }
        }
      }
    });
    return PAGES.map((page, i) => {
      const without = median(p95[i].without);
      const withRestricted = median(p95[i].with);
      const ratio = withRestricted / without;
      const verdict = ratio <= BUDGET_RATIO ? 'met' : '**MISSED**';
      return `| ${page.name} | \`${page.path}\` | ${without.toFixed(1)} | ${withRestricted.toFixed(1)} | ${ratio.toFixed(2)}× | ${median(p95[i].admin).toFixed(1)} | ≤ ${BUDGET_RATIO.toFixed(2)}× ${verdict} |`;
    });
  } finally {
    await database.close();
  }
}

/** Prints the table. */
export function printPermissionCost(label: string, rows: string[]) {
  console.log(`\n### ${label}: the permission filter (a non-admin reader; ~1% of the items restricted)\n`);
  console.log(
    `p95 in ms, median of ${ROUNDS} rounds per state, 10 requests at once; the admin column reads the restricted state without any filter.\n`,
  );
  console.log('| page | path | p95 without restricted | p95 with restricted | ratio | admin p95 | budget |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}
