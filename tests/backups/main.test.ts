import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { controlSocketPath } from '../../src/backups/control';
import { freePort } from '../helpers/browser';
import { startMain } from '../helpers/processes';
import { openDataDir, runCli, tempDir, removeTempDirs } from './support';

// Registered first, so it runs last (after the hooks that close databases).
afterAll(removeTempDirs);

describe('npm run backup while npm start runs (embedded database)', () => {
  it('gets its backup from the running app; a second app on the same DATA_DIR is refused; the copy restores', async () => {
    // A data directory migrated already (from the run's template), so start-up does not spend its time migrating.
    const { dataDir, database } = await openDataDir();
    await database.close();
    const app = startMain({ PORT: String(await freePort()), DATA_DIR: dataDir, DATABASE_URL: '' });
    try {
      await app.listening;
      const out = tempDir('main-out');
      const made = await runCli(['backup', '--out', out], { DATA_DIR: dataDir });
      expect(made.stderr).toBe('');
      expect(made.stdout).toContain('from the running Ops Hub');
      expect(made.code).toBe(0);

      // PGlite has no lock of its own: the running app's control socket keeps a second process out.
      const second = startMain({ PORT: String(await freePort()), DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`The data directory ${dataDir} is in use by another process`);

      app.child.kill('SIGTERM');
      expect(await app.exited).toBe(0);
      expect(existsSync(controlSocketPath(dataDir))).toBe(false);

      const target = tempDir('main-restored');
      const restored = await runCli(['restore', path.join(out, readdirSync(out)[0])], { DATA_DIR: target });
      expect(restored.stdout).toContain("every table's rows match the backup");
      expect(restored.code).toBe(0);
    } finally {
      app.child.kill('SIGKILL');
    }
  }, 120_000);
});
