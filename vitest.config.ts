import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/bench/**', 'node_modules/**'],
    pool: 'forks',
    // One process per worker for all its files: node_modules, PGlite's compiled WebAssembly and Chromium are loaded
    // once, not once per file (that was most of a file's cost). The project's own modules are still evaluated anew
    // for each file (tests/helpers/fresh-modules.ts), so no module state crosses from one file to another.
    isolate: false,
    setupFiles: ['tests/helpers/no-outside-dns.ts', 'tests/helpers/fresh-modules.ts'],
    // Vitest's default is one worker fewer than the cores: 1 on a 2-core machine. The files mostly wait (on PGlite,
    // PostgreSQL, Chromium, child processes), so two at once are faster there (35 s → 27 s on a sample of 12 files).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['tests/helpers/global-setup.ts'],
    // Browser tests poll for what appears after hydration; a loaded 2-core CI machine needs more than the 1 s default.
    expect: { poll: { timeout: 10_000 } },
  },
});
