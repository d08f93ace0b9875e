import type { Config } from '../config';
import type { Database } from '../db/client';
import { claimDataDir, type ControlChannel, type Holder } from './control';
import { createEmbeddedBackup } from './embedded';

/**
 * Backups (README § Backups): `npm run backup` / `npm run restore` (cli.ts), the scheduled job (jobs/backup.ts) and
 * the web process's side of the control channel (control.ts). With the embedded database the web process holds
 * DATA_DIR (PGlite cannot be shared by two processes) and makes the backups `npm run backup` asks it for.
 */
export { writeEmbeddedBackup, type WrittenBackup } from './embedded';
export { pruneBackups } from './files';
export { summarise } from './facts';

/**
 * The web process (or `npm run admin`) takes DATA_DIR before it opens the embedded database (a BackupError when
 * another process holds it); undefined on PostgreSQL. Close the channel after the database.
 */
export async function holdDataDir(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  holder: Holder = 'app',
): Promise<ControlChannel | undefined> {
  return config.databaseUrl ? undefined : claimDataDir(config.dataDir, holder);
}

/** From now on `npm run backup` gets its backup from this process's open database. */
export function serveBackups(
  channel: ControlChannel | undefined,
  database: Database,
  config: Pick<Config, 'dataDir' | 'backup'>,
): void {
  channel?.serveBackups(async () => {
    const made = await createEmbeddedBackup(database, { dataDir: config.dataDir, backupDirs: [config.backup.dir] });
    return made.bytes;
  });
}
