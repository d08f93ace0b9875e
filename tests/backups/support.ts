import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPglite, type Database } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { tracked } from '../helpers/open-databases';
import { runScript, type ScriptRun } from '../helpers/processes';

let template: Blob | undefined;

/**
 * A migrated PGlite data folder to copy: the run's template (PGlite runs), or one migrated here once (the
 * PostgreSQL run has no PGlite template, and these tests are about the embedded database whichever run it is).
 */
async function pgliteTemplate(): Promise<Blob> {
  if (template) return template;
  const file = process.env.TEST_PGLITE_TEMPLATE;
  if (file) {
    template = new Blob([readFileSync(file)]);
    return template;
  }
  const database = await openPglite();
  try {
    await runMigrations(database);
    template = await database.dump!();
    return template;
  } finally {
    await database.close();
  }
}

/**
 * This file's scratch folders (data directories of 40 MB and more, backups) live under one root, removed after the
 * file (removeTempDirs in its afterAll): a run leaves nothing in the temp folder.
 */
let scratchRoot: string | undefined;
export function tempDir(name: string): string {
  scratchRoot ??= mkdtempSync(path.join(tmpdir(), 'opshub-backups-'));
  return mkdtempSync(path.join(scratchRoot, `${name}-`));
}

/** Removes this file's scratch folders (register it first, so it runs after the hooks that close databases). */
export function removeTempDirs(): void {
  if (scratchRoot) rmSync(scratchRoot, { recursive: true, force: true });
  scratchRoot = undefined;
}

/** A new DATA_DIR with a migrated embedded database in it, open (as the web process has it). */
export async function openDataDir(dataDir = tempDir('data')): Promise<{ dataDir: string; database: Database }> {
  const database = tracked(await openPglite(dataDir, await pgliteTemplate()));
  return { dataDir, database };
}

/** A migrated embedded database in memory (as tests run the app): PGlite dumps it itself, having no folder. */
export async function openInMemory(): Promise<Database> {
  return tracked(await openPglite(undefined, await pgliteTemplate()));
}

/** Runs `npm run backup|restore` as its own process (what a person types), with the given environment. */
export function runCli(args: string[], env: Record<string, string>): Promise<ScriptRun> {
  return runScript('src/backups/cli.ts', args, { LOG_LEVEL: 'silent', DATABASE_URL: '', ...env });
}

/** PNG bytes with a unique tail (the magic bytes make it an image; the tail makes each upload distinct). */
export function uniquePng(n: number): Buffer {
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
    'hex',
  );
  return Buffer.concat([png, Buffer.from(`#${n}#${Math.random()}`)]);
}
