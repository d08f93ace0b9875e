import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/admin/cli';
import { auditLog } from '../../src/db/schema';
import { openPglite } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { createTestApp, type TestContext } from '../helpers/app';
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

  it('runs as a command against DATA_DIR', async () => {
    const dir = path.join(t.config.dataDir, 'cli');
    const db = await openPglite(dir);
    await runMigrations(db);
    await db.db.execute(`insert into users (email, first_name) values ('ops@example.com', 'Ops')` as never);
    await db.close();
    const root = path.resolve(import.meta.dirname, '../..');
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'src/admin/cli.ts', 'promote', 'ops@example.com'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
    });
    expect(stdout).toContain('ops@example.com is now an active admin.');
  }, 60_000);
});
