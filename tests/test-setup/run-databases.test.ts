import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/client';
import { dropRunDatabases, onServer, testDatabasePrefix } from '../helpers/db-template';
import { usingPostgres } from '../helpers/db';
import { isAlive } from '../helpers/run-dirs';

const url = process.env.TEST_DATABASE_URL!;

/** A process id no process of this machine has now. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) if (!isAlive(pid)) return pid;
}

async function exists(name: string): Promise<boolean> {
  const admin = openPostgres(url, { max: 1 });
  try {
    return (await admin.pool!.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await admin.close();
  }
}

describe.skipIf(!usingPostgres())('test databases of runs on PostgreSQL', () => {
  it('a run drops the databases a killed run left, and not those of a run still going', async () => {
    const killed = `${testDatabasePrefix(deadPid())}000000000001`;
    const going = `${testDatabasePrefix(process.pid)}000000000001`;
    await onServer(url, [`create database ${killed}`, `create database ${going}`]);
    try {
      await dropRunDatabases(url);
      expect(await exists(killed)).toBe(false);
      expect(await exists(going)).toBe(true);
    } finally {
      await onServer(url, [`drop database if exists ${killed}`, `drop database if exists ${going}`]);
    }
  });
});
