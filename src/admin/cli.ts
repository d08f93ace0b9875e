/**
 * Admin recovery CLI: `npm run admin -- promote <email>` makes an existing account an active admin.
 * Uses the same DATABASE_URL / DATA_DIR as the web process (with PGlite, stop the web process first).
 */
import { pathToFileURL } from 'node:url';
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

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const { code, message } = await runAdminCommand(database.db, process.argv.slice(2));
    (code === 0 ? console.log : console.error)(message);
    process.exitCode = code;
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error('admin command failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
