import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openPostgres, queryRows, type Database } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { documents } from '../../src/db/schema';
import { createTestDatabase, usingPostgres } from '../helpers/db';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const expectedTables = [
  'users',
  'sessions',
  'rate_limit_hits',
  'user_preferences',
  'team_members',
  'documents',
  'document_versions',
  'document_shares',
  'servers',
  'server_documents',
  'health_checks',
  'api_tokens',
  'ai_interactions',
  'objects',
  'mail_outbox',
  'audit_log',
  'job_runs',
  'document_counts',
  'server_counts',
];

describe(`migrations on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('create every table of both specs', async () => {
    const rows = await queryRows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = current_schema()`,
    );
    expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(expectedTables));
  });

  it('apply the spec defaults (version 1, unpublished, server status unknown, port 22)', async () => {
    const [doc] = await database.db
      .insert(documents)
      .values({ space: 'knowledge', title: 'T', content: 'C' })
      .returning();
    expect(doc).toMatchObject({ version: 1, isPublished: false, isTemplate: false, tags: [] });
    const [server] = await queryRows<{ status: string; monitor_port: number; environment: string }>(
      database.db,
      sql`insert into servers (name) values ('web-01') returning status, monitor_port, environment`,
    );
    expect(server).toEqual({ status: 'unknown', monitor_port: 22, environment: 'development' });
  });

  it('keep the weighted search vector up to date', async () => {
    const [doc] = await database.db
      .insert(documents)
      .values({ space: 'documents', title: 'Patching guide', content: 'reboot the cluster', tags: ['wsus'] })
      .returning();
    expect(doc.searchVector).toContain("'patch':1A");
    expect(doc.searchVector).toContain("'wsus'");
    expect(doc.searchVector).toMatch(/'reboot':\d+C/);
  });

  it('keep the search vector in the row and give global search its own small work_mem and a row estimate', async () => {
    const [column] = await queryRows<{ attstorage: string }>(
      database.db,
      sql`select attstorage from pg_attribute where attrelid = 'documents'::regclass and attname = 'search_vector'`,
    );
    expect(column.attstorage).toBe('m');
    const [fn] = await queryRows<{ proconfig: string[]; prorows: number }>(
      database.db,
      sql`select proconfig, prorows from pg_proc where proname = 'ranked_documents'`,
    );
    expect(fn).toEqual({ proconfig: ['work_mem=64kB'], prorows: 20 });
  });

  it('are idempotent when run again', async () => {
    await expect(runMigrations(database)).resolves.toBeUndefined();
  });
});

describe.skipIf(!usingPostgres())('migrations by web processes starting together', () => {
  it('on an empty database: all three succeed, one after the other (advisory lock), and the schema is complete', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `opshub_race_${randomBytes(6).toString('hex')}`;
    const admin = openPostgres(url, { max: 1 });
    await admin.pool!.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const processes = [1, 2, 3].map(() => openPostgres(target.toString(), { max: 2 }));
    try {
      const outcomes = await Promise.allSettled(processes.map((p) => runMigrations(p)));
      expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
      const rows = await queryRows<{ table_name: string }>(
        processes[0].db,
        sql`select table_name from information_schema.tables where table_schema = 'public'`,
      );
      expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(expectedTables));
    } finally {
      await Promise.all(processes.map((p) => p.close()));
      await admin.pool!.query(`drop database if exists ${name} with (force)`);
      await admin.close();
    }
  });
});
