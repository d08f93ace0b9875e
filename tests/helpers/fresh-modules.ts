import { afterAll, vi } from 'vitest';
import { closeLeftoverDatabases } from './open-databases';

// Runs before each test file. A worker runs many files in one process (isolate: false in vitest.config.ts) to keep
// what is costly to load: node_modules, PGlite's compiled WebAssembly, a browser. The project's own modules are
// evaluated anew for each file, so their state (caches, rate limits, configuration) never reaches another file;
// a clock, environment variable or global an earlier file left faked or stubbed is restored, and the databases a
// file left open are closed after it.
vi.resetModules();
vi.useRealTimers();
vi.unstubAllEnvs();
vi.unstubAllGlobals();
afterAll(closeLeftoverDatabases);
