import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openPglite, queryRows } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';

const root = path.resolve(import.meta.dirname, '../..');

/** A child process that writes audit rows one by one and prints each id once its insert is acknowledged. */
const writer = `
import { openPglite } from ${JSON.stringify(path.join(root, 'src/db/client.ts'))};
import { runMigrations } from ${JSON.stringify(path.join(root, 'src/db/migrate.ts'))};
import { auditLog } from ${JSON.stringify(path.join(root, 'src/db/schema/index.ts'))};
const db = await openPglite(process.argv[2]);
await runMigrations(db);
console.log('ready');
for (let i = 0; ; i++) {
  const [row] = await db.db.insert(auditLog).values({ action: 'test.write', entityType: 'test', entityId: String(i) }).returning();
  console.log('ack ' + row.id);
}
`;

describe('embedded database durability', () => {
  it('keeps every acknowledged write after kill -9', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'opshub-crash-'));
    const script = path.join(dir, 'writer.mts');
    writeFileSync(script, writer);
    // One node process (no tsx wrapper), so SIGKILL stops the process that writes.
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.setEncoding('utf8');
    const acked: string[] = [];
    let buffer = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) if (line.startsWith('ack ')) acked.push(line.slice(4));
        if (acked.length >= 60) resolve();
      });
      child.once('exit', (code) => reject(new Error(`writer exited early with ${code}`)));
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;

    const db = await openPglite(dir);
    await runMigrations(db);
    const rows = await queryRows<{ id: string }>(db.db, sql`select id from audit_log`);
    const stored = new Set(rows.map((r) => r.id));
    await db.close();
    expect(acked.length).toBeGreaterThanOrEqual(60);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
  }, 60_000);
});
