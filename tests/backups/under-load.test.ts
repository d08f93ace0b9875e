import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdDataDir, serveBackups } from '../../src/backups/service';
import { readArchive } from '../../src/backups/archive';
import { runBackupCommand } from '../../src/backups/cli';
import type { ControlChannel } from '../../src/backups/control';
import { openPglite, queryRows } from '../../src/db/client';
import { sql } from 'drizzle-orm';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser } from '../helpers/users';
import { openDataDir, runCli, tempDir, uniquePng, removeTempDirs } from './support';

// Registered first, so it runs last (after the hooks that close databases).
afterAll(removeTempDirs);

/** One acknowledged write: what the app answered 2xx for, in the order the answers came, and when. */
interface Ack {
  kind: 'item' | 'image';
  id: string;
  title?: string;
  bytes?: Buffer;
  /** When its request was sent and when its answer came (this process's clock, as the backup's own time is). */
  sentAt: number;
  ackedAt: number;
}

let t: TestContext | undefined;
let control: ControlChannel | undefined;
afterAll(async () => {
  await control?.close();
  await t?.close();
});

describe('a backup under write load', () => {
  it('restored into a fresh data directory, holds every write acknowledged before the backup began', async () => {
    // The app as the web process runs it: its embedded database in DATA_DIR, holding the control socket.
    const { dataDir, database } = await openDataDir();
    t = await createTestApp({ DATA_DIR: dataDir }, database);
    control = await holdDataDir(t.config);
    serveBackups(control, database, t.config);
    const user = await createSignedInUser(t.db);
    const app = t.app;

    const acked: Ack[] = [];
    let stop = false;
    let attempts = 0;
    // In-process requests resolve without a macrotask in between (PGlite answers synchronously), so a write runs
    // wholly in the callback that starts it. Started from a timer, writes taking longer than their pacing kept the
    // event loop in its timers phase (Node refreshes the loop's clock inside callbacks, so the next timer was always
    // due) and the backup's answer waited on its socket for minutes. Requests arriving on sockets run after the loop
    // has polled; so do these: each write starts from setImmediate, 10 ms after the writer's last acknowledgement.
    // Three writers keep the process busy without starving the backup it is making.
    const pause = () => new Promise((r) => setTimeout(() => setImmediate(r), 10));
    const items = async (loop: number) => {
      for (let n = 0; !stop; n++) {
        await pause();
        attempts++;
        const sentAt = Date.now();
        const title = `Load ${loop}-${n}`;
        const res = await app.request(
          '/api/knowledge-base',
          jsonRequest('POST', { title, content: `# ${title}\n\nwritten under load` }, user.cookie),
        );
        if (res.status !== 201) throw new Error(`item write answered ${res.status}: ${await res.text()}`);
        const { id } = await res.json();
        acked.push({ kind: 'item', id, title, sentAt, ackedAt: Date.now() });
      }
    };
    const images = async () => {
      for (let n = 0; !stop; n++) {
        await pause();
        attempts++;
        const sentAt = Date.now();
        const grant = await app.request('/api/objects/upload', jsonRequest('POST', undefined, user.cookie));
        const { uploadURL } = (await grant.json()) as { uploadURL: string };
        const bytes = uniquePng(n);
        const res = await app.request(uploadURL, {
          method: 'PUT',
          headers: { Origin: TEST_ORIGIN, Cookie: user.cookie, 'Content-Type': 'image/png' },
          body: new Uint8Array(bytes),
        });
        if (res.status !== 200) throw new Error(`image write answered ${res.status}: ${await res.text()}`);
        const { id } = await res.json();
        acked.push({ kind: 'image', id, bytes, sentAt, ackedAt: Date.now() });
      }
    };
    let failed: unknown;
    const writers = Promise.all([items(1), items(2), images()]).catch((err) => {
      failed = err;
      stop = true;
    });
    while (acked.length < 20 && !failed) await new Promise((r) => setTimeout(r, 20));
    if (failed) throw failed;

    // `npm run backup` in its own process, asking the running app over the control socket.
    const out = tempDir('backups');
    const beforeStart = acked.length;

    const run = await runCli(['backup', '--out', out], { DATA_DIR: dataDir });
    const byFinish = acked.length;
    await new Promise((r) => setTimeout(r, 100));
    stop = true;
    await writers;
    if (failed) throw failed;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('from the running Ops Hub');
    // The writes really ran alongside the backup.
    expect(byFinish).toBeGreaterThan(beforeStart);

    await control?.close();
    control = undefined;
    await t.close();
    t = undefined;

    const [file] = readdirSync(out);
    expect(file).toMatch(/^ops-hub-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.zip$/);
    // The moment the backup was taken (in the web process, under PGlite's lock): its manifest says.
    const backupTime = readArchive(readFileSync(path.join(out, file)), file).contents.createdAt.getTime();
    const restoredDir = tempDir('restored');
    const restored = await runBackupCommand(['restore', path.join(out, file)], { DATA_DIR: restoredDir });
    expect(restored.message).toContain('every table');
    expect(restored.code).toBe(0);

    const copy = await openPglite(restoredDir);
    try {
      const docs = await queryRows<{ id: string; title: string }>(
        copy.db,
        sql`select id, title from documents where title like 'Load %'`,
      );
      const images = await queryRows<{ id: string; data: Buffer }>(copy.db, sql`select id, data from objects`);
      const found = new Map<string, Buffer | string>([
        ...docs.map((d) => [d.id, d.title] as const),
        ...images.map((o) => [o.id, Buffer.from(o.data)] as const),
      ]);
      // Every write acknowledged before the backup began is there, images byte for byte.
      const missing = acked.slice(0, beforeStart).filter((a) => !found.has(a.id));
      expect(missing).toEqual([]);
      for (const a of acked.slice(0, beforeStart)) {
        if (a.kind === 'image') expect(a.bytes!.equals(found.get(a.id) as Buffer)).toBe(true);
        else expect(found.get(a.id)).toBe(a.title);
      }
      // Sharper: every write acknowledged before the moment the backup was taken is there, and every write there
      // was sent before that moment (none made after it leaked in).
      expect(acked.filter((a) => a.ackedAt < backupTime && !found.has(a.id))).toEqual([]);
      const byId = new Map(acked.map((a) => [a.id, a]));
      expect([...found.keys()].filter((id) => !byId.has(id))).toEqual([]);
      expect([...found.keys()].filter((id) => byId.get(id)!.sentAt > backupTime)).toEqual([]);
      // So the copy holds at least those acknowledged before the backup began, at most those acknowledged by its
      // end plus the ones in flight then (one per writer).
      expect(found.size).toBeGreaterThanOrEqual(beforeStart);
      expect(found.size).toBeLessThanOrEqual(byFinish + 3);
      console.info(
        `backup under load: ${attempts} writes attempted, ${beforeStart} acknowledged before the backup began, ` +
          `${acked.filter((a) => a.ackedAt < backupTime).length} before it was taken, ${byFinish} by its end, ` +
          `${found.size} in the restored copy`,
      );
    } finally {
      await copy.close();
    }
  }, 120_000);
});
