/**
 * Admin recovery CLI: `npm run admin -- promote <email>` makes an existing account an active admin.
 * Uses the same DATABASE_URL / DATA_DIR as the web process. On the embedded database it holds DATA_DIR as the web
 * process does (PGlite has no lock: two processes on its folder corrupt it), so it refuses while Ops Hub, a backup or
 * a restore holds it.
 */
import { pathToFileURL } from 'node:url';
import { holdDataDir } from '../backups/service';
import { loadConfig } from '../config';
import { openDatabase, type Db } from '../db/client';
import { promoteToAdmin } from './service';

const USAGE = 'Usage: npm run admin -- promote <email>';

/** Runs one CLI command; returns the exit code and the line to print. */
export async function runAdminCommand(db: Db, argv: string[]): Promise<{ code: number; message: string }> {
  const [command, email] = argv;
  if (command !== 'promote' || !email) return { code: 2, message: USAGE };
  const user = await promoteToAdmin(db, email);
  if (!user) return { code: 1, message: `No account with the email ${email}.` };
  return { code: 0, message: `${user.email} is now an active admin.` };
}

async function main(): Promise<{ code: number; message: string }> {
  const config = loadConfig();
  let hold: Awaited<ReturnType<typeof holdDataDir>>;
  try {
    hold = await holdDataDir(config, 'admin');
  } catch (err) {
    return { code: 1, message: `npm run admin: ${err instanceof Error ? err.message : err}\nNothing was changed.` };
  }
  try {
    const database = await openDatabase(config);
    try {
      return await runAdminCommand(database.db, process.argv.slice(2));
    } finally {
      await database.close();
    }
  } finally {
    await hold?.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    ({ code, message }) => {
      (code === 0 ? console.log : console.error)(message);
      process.exitCode = code;
    },
    (err) => {
      console.error('admin command failed:', err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
