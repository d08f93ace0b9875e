import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { dropRunDatabases, makePostgresTemplate, pgliteTemplate } from './db-template';
import { buildsDir, pruneDeadRunDirs } from './run-dirs';
import { testAssets } from './test-assets';

/**
 * Once per run, before any test file: the test assets (rebuilt only when an input changed) and the migrated
 * database template every test file copies. All of it is named by this run's process id (run-PID folder,
 * opshub_tpl_PID), inherited by the test workers through the environment, so two runs at once never share
 * or delete each other's; what a killed run left is removed here.
 */
export default async function setup() {
  pruneDeadRunDirs();
  const runDir = path.join(buildsDir, `run-${process.pid}`);
  mkdirSync(runDir, { recursive: true });
  process.env.TEST_RUN_PID = String(process.pid);
  process.env.TEST_BUILD_DIR = await testAssets(runDir);

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    await dropRunDatabases(url);
    process.env.TEST_PG_TEMPLATE = await makePostgresTemplate(url, process.pid);
  } else {
    process.env.TEST_PGLITE_TEMPLATE = await pgliteTemplate(runDir);
  }

  return async () => {
    if (url) await dropRunDatabases(url, process.pid);
    rmSync(runDir, { recursive: true, force: true });
  };
}
