import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/admin/cli';
import { auditLog } from '../../src/db/schema';
import { controlSocketPath } from '../../src/backups/control';
import { holdDataDir } from '../../src/backups/service';
import { openPglite, queryRows } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { createTestApp, type TestContext } from '../helpers/app';
import { usingPostgres } from '../helpers/db';
import { databaseUrl } from '../helpers/db-template';
import { runScript } from '../helpers/processes';
import { login, PASSWORD, register, userByEmail } from '../auth/helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  await register(t, 'first@example.com');
  await register(t, 'locked-out@example.com');
});
afterAll(() => t.close());

describe('npm run admin -- promote <email>', () => {
  it('makes an existing account an active, verified admin and audits it', async () => {
    const result = await runAdminCommand(t.db, ['promote', 'Locked-Out@example.com']);
    expect(result).toEqual({ code: 0, message: 'locked-out@example.com is now an active admin.' });
    const u = await userByEmail(t.db, 'locked-out@example.com');
    expect(u).toMatchObject({ role: 'admin', accountStatus: 'active', isEmailVerified: true });
    expect((await login(t, 'locked-out@example.com', PASSWORD)).status).toBe(200);
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, u.id));
    expect(entry.action).toBe('user.promoted');
  });

  it('says so for an unknown e-mail or a wrong command', async () => {
    expect(await runAdminCommand(t.db, ['promote', 'nobody@example.com'])).toMatchObject({ code: 1 });
    expect((await runAdminCommand(t.db, ['demote', 'x'])).message).toMatch(/Usage: npm run admin -- promote <email>/);
  });

  it('runs as a command against DATA_DIR, holding it as Ops Hub does: refused while Ops Hub holds it', async () => {
    const dir = path.join(t.config.dataDir, 'cli');
    const db = await openPglite(dir);
    await runMigrations(db);
    await db.db.execute(`insert into users (email, first_name) values ('ops@example.com', 'Ops')` as never);
    await db.close();
    const promote = () =>
      runScript('src/admin/cli.ts', ['promote', 'ops@example.com'], { DATA_DIR: dir, DATABASE_URL: '' });

    // Ops Hub runs on DATA_DIR (it holds the folder's control socket): two processes on PGlite's folder corrupt it.
    const app = await holdDataDir({ databaseUrl: undefined, dataDir: dir });
    const refused = await promote().finally(() => app?.close());
    expect(refused.stderr).toContain(
      `npm run admin: The data directory ${path.resolve(dir)} is in use by another process`,
    );
    expect(refused.stderr).toContain('stop that first.\nNothing was changed.');
    expect(refused.code).toBe(1);
    const before = await openPglite(dir);
    const [ops] = await queryRows<{ role: string }>(
      before.db,
      sql`select role from users where email = 'ops@example.com'`,
    );
    await before.close();
    expect(ops.role).not.toBe('admin');

    // Ops Hub stopped: the command works, and lets DATA_DIR go when it is done.
    const done = await promote();
    expect(done.stdout).toContain('ops@example.com is now an active admin.');
    expect(done.code).toBe(0);
    expect(existsSync(controlSocketPath(dir))).toBe(false);
    await (await holdDataDir({ databaseUrl: undefined, dataDir: dir }))?.close();
  }, 60_000);

  it.skipIf(!usingPostgres())(
    'on PostgreSQL leaves DATA_DIR alone (another process may hold it)',
    async () => {
      const [{ name }] = await queryRows<{ name: string }>(t.db, sql`select current_database() as name`);
      const dir = path.join(t.config.dataDir, 'held');
      const held = await holdDataDir({ databaseUrl: undefined, dataDir: dir });
      const run = await runScript('src/admin/cli.ts', ['promote', 'first@example.com'], {
        DATA_DIR: dir,
        DATABASE_URL: databaseUrl(process.env.TEST_DATABASE_URL!, name),
      }).finally(() => held?.close());
      expect(run.stdout).toContain('first@example.com is now an active admin.');
      expect(run.code).toBe(0);
    },
    60_000,
  );
});
