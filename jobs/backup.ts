import { pruneBackups, summarise, writeEmbeddedBackup } from '../src/backups/service';
import { defineJob } from './define-job';

/**
 * Backs up the embedded database to BACKUP_DIR on BACKUP_CRON and keeps the BACKUP_KEEP newest (README § Backups).
 * It runs in the web process, which holds PGlite; with PostgreSQL it is off (pg_dump is PostgreSQL's own tool).
 */
export const backupJob = defineJob({
  name: 'backup',
  title: 'Backup of the embedded database',
  schedule: (config) => (config.databaseUrl ? 'off' : config.backup.cron),
  async run({ database, config }) {
    if (database.kind !== 'pglite') {
      return 'Skipped: on PostgreSQL, back up with npm run backup (pg_dump) or your own PostgreSQL backups.';
    }
    const { dir, keep } = config.backup;
    const made = await writeEmbeddedBackup(database, { dataDir: config.dataDir, outDir: dir });
    const removed = await pruneBackups(dir, keep);
    const mb = (made.bytes / 1024 / 1024).toFixed(1);
    return `Wrote ${made.file} (${mb} MB: ${summarise(made.facts)}); removed ${removed.length} older, keeping ${keep}.`;
  },
});
