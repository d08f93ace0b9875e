import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackupCommand } from '../../src/backups/cli';
import { readFacts } from '../../src/backups/facts';
import { openPostgres, queryRows, type Database } from '../../src/db/client';
import { saveObject } from '../../src/objects/service';
import { createTestApp, jsonRequest } from '../helpers/app';
import { databaseUrl, onServer, testDatabasePrefix } from '../helpers/db-template';
import { createSignedInUser } from '../helpers/users';
import { tempDir, uniquePng, removeTempDirs } from './support';

// Registered first, so it runs last (after the hooks that close databases).
afterAll(removeTempDirs);

/**
 * `npm run backup` / `npm run restore` with DATABASE_URL: pg_dump and pg_restore against the PostgreSQL of
 * TEST_DATABASE_URL, between scratch databases of this run (dropped after; a killed run's are dropped by the next).
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const scratch = (what: string) =>
  `${testDatabasePrefix(Number(process.env.TEST_RUN_PID))}bk_${what}_${randomBytes(4).toString('hex')}`;

const names = { source: scratch('src'), target: scratch('dst'), spare: scratch('spare') };
const opened: Database[] = [];
const open = (name: string) => {
  const database = openPostgres(databaseUrl(serverUrl!, name), { max: 2 });
  opened.push(database);
  return database;
};
const factsOf = (database: Database) =>
  readFacts(async (text) => (await database.pool!.query(text)).rows as Record<string, unknown>[]);

describe.skipIf(!serverUrl)('backups on PostgreSQL (pg_dump / pg_restore)', () => {
  const image = uniquePng(7);
  const imageId = randomUUID();
  let source: Database;

  beforeAll(async () => {
    await onServer(serverUrl!, [
      `create database ${names.source} template ${process.env.TEST_PG_TEMPLATE}`,
      `create database ${names.target}`,
      `create database ${names.spare}`,
    ]);
    source = open(names.source);
    const t = await createTestApp({}, source);
    const user = await createSignedInUser(source.db, { email: 'grace@example.com' });
    for (const title of ['Restart the mail relay', 'Rotate the VPN keys']) {
      const res = await t.app.request(
        '/api/knowledge-base',
        jsonRequest('POST', { title, content: `# ${title}` }, user.cookie),
      );
      expect(res.status).toBe(201);
    }
    await saveObject(source.db, imageId, user.id, 'image/png', image);
  });

  afterAll(async () => {
    for (const database of opened) await database.close().catch(() => {});
    await onServer(
      serverUrl!,
      Object.values(names).map((name) => `drop database if exists ${name} with (force)`),
    );
  });

  it('dumps one database and restores it into an empty one, equal table for table; a used one is refused', async () => {
    const out = tempDir('pg-out');
    const made = await runBackupCommand(['backup', '--out', out], {
      DATABASE_URL: databaseUrl(serverUrl!, names.source),
    });
    expect(made.message).toContain('pg_dump custom format');
    expect(made.code).toBe(0);
    const [file] = readdirSync(out);
    expect(file).toMatch(/^ops-hub-backup-.*\.dump$/);
    expect(statSync(path.join(out, file)).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(out, file)).subarray(0, 5).toString()).toBe('PGDMP');

    const targetUrl = databaseUrl(serverUrl!, names.target);
    const restored = await runBackupCommand(['restore', path.join(out, file)], { DATABASE_URL: targetUrl });
    expect(restored.message).toMatch(/checked it: 1 user, 2 items, 1 image, 0 servers; \d+ migrations applied/);
    expect(restored.code).toBe(0);

    const target = open(names.target);
    const [before, after] = await Promise.all([factsOf(source), factsOf(target)]);
    expect(after.rows).toEqual(before.rows);
    expect(after.migrations).toBe(before.migrations);
    expect(after.migrations).toBeGreaterThan(0);
    const items = sql`select title, content, version from documents order by title`;
    expect(await queryRows(target.db, items)).toEqual(await queryRows(source.db, items));
    const [row] = await queryRows<{ data: Buffer }>(target.db, sql`select data from objects where id = ${imageId}`);
    expect(Buffer.from(row.data).equals(image)).toBe(true);

    // Restoring again into the same (now used) database is refused before anything runs.
    const again = await runBackupCommand(['restore', path.join(out, file)], { DATABASE_URL: targetUrl });
    expect(again.code).toBe(1);
    expect(again.message).toContain(`The database ${names.target} is not empty`);
    expect(again.message).toContain('Nothing was restored.');
    expect((await factsOf(target)).rows).toEqual(before.rows);

    // A truncated dump fails with pg_restore's words and leaves the empty database empty (one transaction).
    const truncated = path.join(out, 'truncated.dump');
    const bytes = readFileSync(path.join(out, file));
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const spareUrl = databaseUrl(serverUrl!, names.spare);
    const broken = await runBackupCommand(['restore', truncated], { DATABASE_URL: spareUrl });
    expect(broken.code).toBe(1);
    expect(broken.message).toMatch(/pg_restore/);
    expect(broken.message).toContain('Nothing was restored.');
    expect((await factsOf(open(names.spare))).rows).toEqual({});

    // A backup of the embedded database is not for PostgreSQL.
    const zip = path.join(out, 'embedded.zip');
    writeFileSync(zip, Buffer.from('PK\u0003\u0004'));
    const wrongKind = await runBackupCommand(['restore', zip], { DATABASE_URL: spareUrl });
    expect(wrongKind.message).toContain('is a backup of the embedded database: restore it without DATABASE_URL');
  }, 60_000);
});
