import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupJob } from '../../jobs/backup';
import { runBackupCommand } from '../../src/backups/cli';
import { backupFileName, pruneBackups, writeBackupFile } from '../../src/backups/files';
import { createTestDatabase, usingPostgres } from '../helpers/db';
import { jobsConfig, testScheduler } from '../jobs/support';
import { openDataDir, openInMemory, tempDir, removeTempDirs } from './support';

// Registered first, so it runs last (after the hooks that close databases).
afterAll(removeTempDirs);

describe('the backup job', () => {
  it('runs daily at 02:30 by default, BACKUP_CRON=off turns it off, and it is off on PostgreSQL', () => {
    expect(backupJob.schedule(jobsConfig())).toBe('30 2 * * *');
    expect(backupJob.schedule(jobsConfig({ BACKUP_CRON: 'off' }))).toBe('off');
    expect(backupJob.schedule(jobsConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/x' }))).toBe('off');
    const config = jobsConfig();
    expect(config.backup).toEqual({ cron: '30 2 * * *', keep: 7, dir: path.join(config.dataDir, 'backups') });
  });

  // 90 s: the PostgreSQL run has no PGlite template and migrates one first.
  it.each([
    ['in DATA_DIR (as npm start has it)', async () => (await openDataDir()).database],
    ['in memory (PGlite dumps it itself)', openInMemory],
  ])(
    'writes a backup of the embedded database %s to BACKUP_DIR, keeping the BACKUP_KEEP newest',
    async (_, open) => {
      const database = await open();
      const dir = tempDir('job');
      const config = jobsConfig({ BACKUP_DIR: dir, BACKUP_KEEP: '2' });
      const scheduler = testScheduler(database, { config });
      try {
        const outcomes = [];
        for (let i = 0; i < 3; i++) outcomes.push(await scheduler.runNow('backup'));
        expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok', 'ok']);
        expect(outcomes[2].message).toMatch(
          /^Wrote .*ops-hub-backup-.*\.zip \(\d+\.\d MB: 0 users, 0 items, 0 images, 0 servers\); removed 1 older, keeping 2\.$/,
        );
        const names = readdirSync(dir).sort();
        expect(names).toHaveLength(2);
        // The newest two are kept: the files of the last two runs.
        expect(outcomes.slice(1).map((o) => path.basename(o.message.split(' ')[1]))).toEqual(names);
        const restored = await runBackupCommand(['restore', path.join(dir, names[1])], { DATA_DIR: tempDir('data') });
        expect(restored.message).toContain('every table');
        expect(restored.code).toBe(0);
      } finally {
        await scheduler.stop();
        await database.close();
      }
    },
    90_000,
  );

  it.runIf(usingPostgres())('on PostgreSQL says to use pg_dump and writes nothing', async () => {
    const database = await createTestDatabase();
    const dir = tempDir('job');
    const scheduler = testScheduler(database, { config: jobsConfig({ BACKUP_DIR: dir }) });
    try {
      expect(await scheduler.runNow('backup')).toMatchObject({
        status: 'ok',
        message: 'Skipped: on PostgreSQL, back up with npm run backup (pg_dump) or your own PostgreSQL backups.',
      });
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await scheduler.stop();
      await database.close();
    }
  });
});

describe('keeping the newest backups', () => {
  it('deletes the older backups of the kind and stale temp files, nothing else', async () => {
    const dir = tempDir('prune');
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 2, 30));
    const zips = [1, 2, 3, 4, 5].map((d) => backupFileName(at(d), 'zip'));
    const sameMillisecond = backupFileName(at(5), 'zip', 2); // a second backup in the same millisecond
    const dump = backupFileName(at(1), 'dump');
    const others = ['notes.txt', 'ops-hub-backup-handmade.zip'];
    const staleTemp = '.ops-hub-backup-123-abcd.tmp';
    const freshTemp = '.ops-hub-backup-456-ef01.tmp';
    for (const name of [...zips, sameMillisecond, dump, ...others, staleTemp, freshTemp]) {
      writeFileSync(path.join(dir, name), 'x');
    }
    const sevenHoursAgo = new Date(Date.now() - 7 * 3600_000);
    utimesSync(path.join(dir, staleTemp), sevenHoursAgo, sevenHoursAgo);

    const removed = await pruneBackups(dir, 3);
    expect(removed.sort()).toEqual([...zips.slice(0, 3), staleTemp].sort());
    expect(readdirSync(dir).sort()).toEqual([zips[3], zips[4], sameMillisecond, dump, ...others, freshTemp].sort());
    expect(await pruneBackups(path.join(dir, 'missing'), 3)).toEqual([]);
  });
});

describe('writing a backup file', () => {
  it('never shows a half-written file under a backup name: a failure leaves nothing, success is 0600', async () => {
    const dir = tempDir('atomic');
    const at = new Date();
    await expect(
      writeBackupFile(dir, at, 'zip', async (temp) => {
        await writeFile(temp, 'half of it');
        expect(readdirSync(dir)).toEqual([path.basename(temp)]);
        expect(path.basename(temp)).toMatch(/^\.ops-hub-backup-.*\.tmp$/);
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(readdirSync(dir)).toEqual([]);

    const first = await writeBackupFile(dir, at, 'zip', (temp) => writeFile(temp, 'one'));
    const second = await writeBackupFile(dir, at, 'zip', (temp) => writeFile(temp, 'two'));
    expect(path.basename(first)).toBe(backupFileName(at, 'zip'));
    expect(path.basename(second)).toBe(backupFileName(at, 'zip', 1)); // same millisecond: not overwritten
    expect(statSync(first).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual([path.basename(first), path.basename(second)].sort());
  });
});
