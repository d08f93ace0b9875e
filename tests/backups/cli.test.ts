import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { pack, type Header } from 'tar-stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildArchive, readArchive } from '../../src/backups/archive';
import { runBackupCommand } from '../../src/backups/cli';
import { claimDataDir, controlSocketPath, requestBackup } from '../../src/backups/control';
import { holdDataDir, serveBackups } from '../../src/backups/service';
import { openPglite, queryRows, type Database } from '../../src/db/client';
import { saveObject } from '../../src/objects/service';
import { createSignedInUser } from '../helpers/users';
import { openDataDir, tempDir, uniquePng, removeTempDirs } from './support';

// Registered first, so it runs last (after the hooks that close databases).
afterAll(removeTempDirs);

/** A stopped app's data directory with a user, an image and a mail file in it, and one backup of it. */
let dataDir: string;
let backupFile: string;
let imageId: string;
const image = uniquePng(1);

beforeAll(async () => {
  const opened = await openDataDir();
  dataDir = opened.dataDir;
  const user = await createSignedInUser(opened.database.db, { email: 'ada@example.com' });
  imageId = crypto.randomUUID();
  await saveObject(opened.database.db, imageId, user.id, 'image/png', image);
  await opened.database.close();
  mkdirSync(path.join(dataDir, 'mail'));
  writeFileSync(path.join(dataDir, 'mail', 'welcome.txt'), 'To: ada@example.com\n');

  const out = tempDir('out');
  const made = await runBackupCommand(['backup', '--out', out], { DATA_DIR: dataDir });
  expect(made.message).toContain('Ops Hub was not running');
  expect(made.code).toBe(0);
  backupFile = path.join(out, readdirSync(out)[0]);
});

/** What a restore leaves: the data directory's entries, or null when it does not exist. */
const entriesOf = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : null);

describe('npm run backup with Ops Hub stopped, npm run restore', () => {
  it('writes a 0600 zip, restores it into an empty data directory with the images and the files of DATA_DIR', async () => {
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(backupFile)).mode & 0o777).toBe(0o700);
    // The data directory is left as it was: nothing of the backup's lock stays behind.
    expect(entriesOf(dataDir)).toEqual(['mail', 'pglite']);

    const target = path.join(tempDir('restore'), 'data'); // not made yet
    const restored = await runBackupCommand(['restore', backupFile], { DATA_DIR: target });
    expect(restored.code).toBe(0);
    expect(restored.message).toMatch(/checked it: 1 user, 0 items, 1 image, 0 servers; every table's rows match/);
    expect(entriesOf(target)).toEqual(['mail', 'pglite']);
    expect(readFileSync(path.join(target, 'mail', 'welcome.txt'), 'utf8')).toBe('To: ada@example.com\n');
    const copy = await openPglite(target);
    try {
      const [row] = await queryRows<{ data: Buffer }>(copy.db, sql`select data from objects where id = ${imageId}`);
      expect(Buffer.from(row.data).equals(image)).toBe(true);
      const users = await queryRows<{ email: string }>(copy.db, sql`select email from users`);
      expect(users.map((u) => u.email)).toEqual(['ada@example.com']);
    } finally {
      await copy.close();
    }
  });

  it('restores into a data directory that holds only its backups folder (the default BACKUP_DIR)', async () => {
    const target = tempDir('restore');
    mkdirSync(path.join(target, 'backups'));
    const inside = path.join(target, 'backups', path.basename(backupFile));
    writeFileSync(inside, readFileSync(backupFile));
    const restored = await runBackupCommand(['restore', inside], { DATA_DIR: target });
    expect(restored.code).toBe(0);
    expect(entriesOf(target)).toEqual(['backups', 'mail', 'pglite']);
  });

  it('refuses a data directory that is not empty, with a message, and changes nothing', async () => {
    for (const leftover of ['pglite', 'notes.txt']) {
      const target = tempDir('used');
      if (leftover === 'pglite') mkdirSync(path.join(target, 'pglite', 'base'), { recursive: true });
      else writeFileSync(path.join(target, leftover), 'keep me');
      const before = entriesOf(target);
      const refused = await runBackupCommand(['restore', backupFile], { DATA_DIR: target });
      expect(refused.code).toBe(1);
      expect(refused.message).toContain(`The data directory ${target} is not empty (it holds ${leftover})`);
      expect(refused.message).toContain('Nothing was restored.');
      expect(entriesOf(target)).toEqual(before);
    }
  });

  it('refuses a truncated, a damaged or a foreign file with a message and leaves nothing half-made', async () => {
    const bytes = readFileSync(backupFile);
    const dir = tempDir('bad');
    const truncated = path.join(dir, 'truncated.zip');
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    // One byte changed inside the stored database dump: the zip still reads, the checksum does not match.
    const damaged = path.join(dir, 'damaged.zip');
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(damaged, flipped);
    const foreign = path.join(dir, 'photos.zip');
    writeFileSync(foreign, zipSync({ 'a.txt': strToU8('hello') }));
    // A well-formed backup whose database is not a PostgreSQL data folder: it fails when opened.
    const hollow = path.join(dir, 'hollow.zip');
    writeFileSync(
      hollow,
      buildArchive({
        createdAt: new Date(),
        database: new Uint8Array(gzipSync(Buffer.alloc(4096, 7))),
        postgres: '17',
        rows: { users: 1 },
        migrations: 1,
        files: new Map(),
      }),
    );
    const cases: [string, RegExp][] = [
      [truncated, /truncated\.zip is not a usable Ops Hub backup: .*truncated or damaged/],
      [damaged, /damaged\.zip is not a usable Ops Hub backup: .*(damaged|checksum)/],
      [foreign, /photos\.zip is not a usable Ops Hub backup: it has no manifest\.json/],
      [hollow, /The database dump in hollow\.zip is not a PostgreSQL data folder/],
      [path.join(dir, 'missing.zip'), /Cannot read .*missing\.zip: no such file/],
    ];
    for (const [file, message] of cases) {
      const target = path.join(tempDir('restore'), 'data');
      const failed = await runBackupCommand(['restore', file], { DATA_DIR: target });
      expect(failed.code, file).toBe(1);
      expect(failed.message).toMatch(message);
      expect(failed.message).toContain('Nothing was restored.');
      expect(failed.message).not.toContain('    at ');
      expect(entriesOf(target), file).toBeNull();
    }
  });

  it('refuses a database dump with an entry outside the data folder or a link, before PGlite loads it', async () => {
    const { contents } = readArchive(readFileSync(backupFile), 'backup');
    const dump = gunzipSync(contents.database);
    const dir = tempDir('escape');
    const cases: [TarHeader, RegExp][] = [
      [{ name: '../outside.txt' }, /its entry "\.\.\/outside\.txt" points outside the folder/],
      [{ name: 'pg_wal/etc', type: 'symlink', linkname: '/etc' }, /its entry "pg_wal\/etc" is a symlink/],
      [{ name: 'global/pg_hba', type: 'link', linkname: '../../outside.txt' }, /its entry "global\/pg_hba" is a link/],
    ];
    for (const [i, [header, message]] of cases.entries()) {
      // The data folder of the good backup with one more entry after its last (its end-of-archive blocks replaced).
      const database = gzipSync(Buffer.concat([dump.subarray(0, dump.length - 1024), await tarOf(header, 'x')]), {
        level: 1,
      });
      const file = path.join(dir, `${i}.zip`);
      writeFileSync(file, buildArchive({ ...contents, database: new Uint8Array(database) }));
      const target = path.join(tempDir('restore'), 'data');
      const refused = await runBackupCommand(['restore', file], { DATA_DIR: target });
      expect(refused.message).toMatch(/The database dump in \d\.zip is not a PostgreSQL data folder \(/);
      expect(refused.message).toMatch(message);
      expect(refused.code).toBe(1);
      expect(entriesOf(target), header.name).toBeNull();
    }
  });

  it('answers a usage line to a wrong command line, and names a PostgreSQL dump given without DATABASE_URL', async () => {
    expect(await runBackupCommand(['restore'], { DATA_DIR: dataDir })).toMatchObject({ code: 2 });
    expect(await runBackupCommand(['backup', '--out'], { DATA_DIR: dataDir })).toMatchObject({ code: 2 });
    const dump = path.join(tempDir('dump'), 'x.dump');
    writeFileSync(dump, 'PGDMP\u0001\u000e');
    const refused = await runBackupCommand(['restore', dump], { DATA_DIR: tempDir('restore') });
    expect(refused.message).toContain('is a PostgreSQL dump: set DATABASE_URL to an empty database');
  });

  it('says so when DATA_DIR holds no database', async () => {
    const empty = tempDir('nothing');
    const res = await runBackupCommand(['backup', '--out', tempDir('out')], { DATA_DIR: empty });
    expect(res.code).toBe(1);
    expect(res.message).toContain('There is no embedded database in');
    expect(res.message).toContain('No backup was written.');
  });
});

describe('the control socket', () => {
  let app: { dataDir: string; database: Database } | undefined;
  let channel: Awaited<ReturnType<typeof holdDataDir>>;
  afterAll(async () => {
    await channel?.close();
    await app?.database.close();
  });

  it('is reachable by this user only, answers backups while the app runs, and keeps a second holder out', async () => {
    app = await openDataDir();
    channel = await holdDataDir({ databaseUrl: undefined, dataDir: app.dataDir });
    const socket = controlSocketPath(app.dataDir);
    expect(statSync(path.dirname(socket)).mode & 0o777).toBe(0o700);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(socket).isSocket()).toBe(true);

    // Before the app is ready it says so; then it answers with a backup.
    await expect(requestBackup(app.dataDir)).rejects.toThrow('Ops Hub is starting; try again in a moment.');
    serveBackups(channel, app.database, { dataDir: app.dataDir, backup: { dir: '', keep: 1, cron: 'off' } });
    const out = tempDir('out');
    const made = await runBackupCommand(['backup', '--out', out], { DATA_DIR: app.dataDir });
    expect(made.message).toContain('from the running Ops Hub');
    expect(made.code).toBe(0);

    // A second app, or a backup/restore that would open the folder itself, is refused while this one holds it.
    await expect(claimDataDir(app.dataDir, 'app')).rejects.toThrow(/is in use by another process/);

    // Closed: the socket is gone, and a stale socket file (a killed app) does not keep the folder locked.
    await channel!.close();
    channel = undefined;
    expect(existsSync(socket)).toBe(false);
    expect(await requestBackup(app.dataDir)).toBeNull();
  });

  it('takes over a stale socket left by a killed process', async () => {
    const dir = tempDir('stale');
    const socket = controlSocketPath(dir);
    mkdirSync(path.dirname(socket), { mode: 0o700 });
    await leaveStaleSocket(socket);
    expect(statSync(socket).isSocket()).toBe(true);
    expect(await requestBackup(dir)).toBeNull(); // nothing answers: no app runs
    const holder = await claimDataDir(dir, 'backup');
    await holder.close();
  });

  it('refuses a backup request while another command holds the folder', async () => {
    const dir = tempDir('busy');
    const holder = await claimDataDir(dir, 'restore');
    try {
      await expect(requestBackup(dir)).rejects.toThrow(
        'npm run restore is writing this data directory; try again shortly.',
      );
    } finally {
      await holder.close();
    }
  });
});

type TarHeader = Partial<Header> & Pick<Header, 'name'>;

/** A tar of one entry (a file gets `data`), as another tool could have written it. */
async function tarOf(header: TarHeader, data: string): Promise<Buffer> {
  const tarball = pack();
  if (!header.type || header.type === 'file') tarball.entry(header, data);
  else tarball.entry(header);
  tarball.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tarball) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Leaves a socket file nothing listens on (what a killed process leaves behind). */
async function leaveStaleSocket(socket: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => child.once('exit', resolve));
}
