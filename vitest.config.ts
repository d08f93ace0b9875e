import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/bench/**', 'node_modules/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['tests/helpers/global-setup.ts'],
    // Browser tests poll for what appears after hydration; a loaded 2-core CI machine needs more than the 1 s default.
    expect: { poll: { timeout: 10_000 } },
  },
});
