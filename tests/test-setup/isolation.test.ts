import path from 'node:path';
import { expect, it } from 'vitest';
import { startVitest } from 'vitest/node';

const root = path.resolve(import.meta.dirname, '../..');

it('one worker running many files (isolate: false) gives each file fresh project modules', async () => {
  // The project's vitest.config.ts on two files that change one module's state, in one worker, one after the other.
  const vitest = await startVitest('test', [], {
    root,
    config: path.join(root, 'vitest.config.ts'),
    include: ['tests/fixtures/isolation/*.check.ts'],
    globalSetup: [],
    maxWorkers: 1,
    watch: false,
    reporters: [],
  });
  try {
    const files = vitest.state.getFiles().map((file) => [path.basename(file.filepath), file.result?.state]);
    expect(files.sort()).toEqual([
      ['first.check.ts', 'pass'],
      ['second.check.ts', 'pass'],
    ]);
  } finally {
    await vitest.close();
  }
});
