import type { Database } from '../../src/db/client';

/**
 * Test databases not closed yet, kept on globalThis: a worker process runs many files and evaluates the test
 * helpers anew for each, so a module-level set would be forgotten with the file that filled it.
 */
const registry = globalThis as { opshubTestDatabases?: Set<Database> };
registry.opshubTestDatabases ??= new Set();
const open = registry.opshubTestDatabases;

/** The database, with a close() that also forgets it. */
export function tracked(database: Database): Database {
  const close = database.close;
  const wrapped: Database = {
    ...database,
    close: (timeoutMs) => {
      open.delete(wrapped);
      return close(timeoutMs);
    },
  };
  open.add(wrapped);
  return wrapped;
}

/**
 * Closes the test databases a file left open (after each file, tests/helpers/fresh-modules.ts): the worker process
 * lives on, so an in-memory PGlite left open would hold its memory for the rest of the run.
 */
export async function closeLeftoverDatabases(): Promise<void> {
  const left = [...open];
  open.clear();
  await Promise.all(left.map((database) => database.close().catch(() => {})));
}
