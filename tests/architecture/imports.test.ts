import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGraph, parseSource, readProjectGraph, resolveSpecifier, type SourceFile } from './import-graph';
import {
  circleViolations,
  crossFeatureViolations,
  declaredJoins,
  importViolations,
  islandViolations,
  layerViolations,
} from './import-rules';

/** ARCHITECTURE.md § Layout, enforced on the imports of src/, islands/ and jobs/ (rules in import-rules.ts). */

const root = path.resolve(import.meta.dirname, '../..');
const realGraph = readProjectGraph(root, ['src', 'islands', 'jobs']);

/** A planted tree: file → source text. */
const plant = (tree: Record<string, string>) =>
  buildGraph(Object.entries(tree).map(([file, text]): SourceFile => parseSource(file, text)));

describe('reading imports', () => {
  it('sees import, import type, export-from, type-only specifiers and dynamic import()', () => {
    const s = parseSource(
      'src/a/x.tsx',
      [
        "import { a } from './a';",
        "import type { B } from './b';",
        "import { type C, type D } from './c';",
        "import { type E, f } from './e';",
        "import './side-effect';",
        "export { g } from './g';",
        "export type { H } from './h';",
        "const lazy = () => import('./lazy');",
        "type T = import('./t').T;",
      ].join('\n'),
    );
    expect(s.imports).toEqual([
      { specifier: './a', typeOnly: false, dynamic: false },
      { specifier: './b', typeOnly: true, dynamic: false },
      { specifier: './c', typeOnly: true, dynamic: false },
      { specifier: './e', typeOnly: false, dynamic: false },
      { specifier: './side-effect', typeOnly: false, dynamic: false },
      { specifier: './g', typeOnly: false, dynamic: false },
      { specifier: './h', typeOnly: true, dynamic: false },
      { specifier: './lazy', typeOnly: false, dynamic: true },
      { specifier: './t', typeOnly: true, dynamic: false },
    ]);
  });

  it('resolves extensions, folder index files and .js specifiers; packages are not project files', () => {
    const files = new Set(['src/a/b.ts', 'src/a/c/index.tsx', 'src/a/d.tsx']);
    const exists = (f: string) => files.has(f);
    expect(resolveSpecifier('src/x/y.ts', '../a/b', exists)).toBe('src/a/b.ts');
    expect(resolveSpecifier('src/x/y.ts', '../a/b.js', exists)).toBe('src/a/b.ts');
    expect(resolveSpecifier('src/a/b.ts', './c', exists)).toBe('src/a/c/index.tsx');
    expect(resolveSpecifier('src/a/b.ts', './d', exists)).toBe('src/a/d.tsx');
    expect(resolveSpecifier('src/a/b.ts', 'react', exists)).toBeUndefined();
  });

  it('reads the real tree', () => {
    const graph = realGraph;
    expect(graph.files.has('src/app.tsx')).toBe(true);
    expect(graph.files.has('jobs/worker.ts')).toBe(true);
    expect(graph.edges.some((e) => e.from === 'src/app.tsx' && e.to === 'src/auth/session-loader.ts')).toBe(true);
  });
});

describe('each rule fires on a planted violation', () => {
  it('a circle of imports, with its path (type-only imports count)', () => {
    const graph = plant({
      'src/a/one.ts': "import { two } from './two';",
      'src/a/two.ts': "import type { Three } from './three';",
      'src/a/three.ts': "import { one } from './one';",
      'src/a/free.ts': "import { one } from './one';",
    });
    expect(circleViolations(graph).map((v) => v.message)).toEqual([
      'src/a/one.ts → src/a/two.ts → src/a/three.ts → src/a/one.ts (tangle of 3 files)',
    ]);
    const self = plant({ 'src/a/self.ts': "export { x } from './self';" });
    expect(circleViolations(self).map((v) => v.message)).toEqual(['src/a/self.ts → src/a/self.ts']);
  });

  it('a feature reaching into another past its service, commands, shared module and schemas types', () => {
    const graph = plant({
      'src/servers/service.ts': '',
      'src/servers/commands.ts': '',
      'src/servers/shared.ts': '',
      'src/servers/schemas.ts': '',
      'src/servers/probe.ts': '',
      'src/servers/views/Table.tsx': '',
      'src/knowledge/shared/fields.ts': '',
      'src/auth/policy.ts': '',
      'src/team/ok.ts': [
        "import { a } from '../servers/service';",
        "import { b } from '../servers/commands';",
        "import { c } from '../servers/shared';",
        "import type { D } from '../servers/schemas';",
        "import { e } from '../knowledge/shared/fields';",
        "import { can } from '../auth/policy';",
        "import { own } from './own';",
      ].join('\n'),
      'src/team/own.ts': '',
      'src/team/bad.ts': [
        "import { probe } from '../servers/probe';",
        "import { schema } from '../servers/schemas';",
        "import { Table } from '../servers/views/Table';",
      ].join('\n'),
    });
    expect(crossFeatureViolations(graph).map((v) => v.message)).toEqual([
      'src/team/bad.ts → src/servers/probe.ts',
      'src/team/bad.ts → src/servers/schemas.ts',
      'src/team/bad.ts → src/servers/views/Table.tsx',
    ]);
  });

  it('ui, http and db importing a feature (a type too); other layers and root files are free', () => {
    const graph = plant({
      'src/auth/sessions.ts': '',
      'src/auth/schemas.ts': '',
      'src/ui/Sidebar.tsx': "import { can } from '../auth/policy';\nimport { Icon } from './icons';",
      'src/ui/icons.tsx': '',
      'src/auth/policy.ts': '',
      'src/http/session.ts': "import { findSessionUser } from '../auth/sessions';",
      'src/db/schema/users.ts': "import type { Role } from '../../auth/schemas';",
      'src/app.tsx': "import { findSessionUser } from './auth/sessions';",
    });
    expect(layerViolations(graph).map((v) => v.message)).toEqual([
      'src/ui/Sidebar.tsx → src/auth/policy.ts',
      'src/http/session.ts → src/auth/sessions.ts',
      'src/db/schema/users.ts → src/auth/schemas.ts (type)',
    ]);
  });

  it('an island importing server code; a shared module (of a feature or of ui) and schemas types are browser-safe', () => {
    const graph = plant({
      'src/servers/shared.ts': '',
      'src/knowledge/shared/spaces.ts': '',
      'src/servers/schemas.ts': '',
      'src/servers/service.ts': '',
      'src/ui/format.ts': '',
      'src/ui/shared.ts': '',
      'islands/_lib/json.ts': '',
      'islands/ServerTable.tsx': [
        "import { COLUMNS } from '../src/servers/shared';",
        "import { SPACES } from '../src/knowledge/shared/spaces';",
        "import type { Server } from '../src/servers/schemas';",
        "import type { Json } from './_lib/json';",
        "import { listServers } from '../src/servers/service';",
        "import { formatDate } from '../src/ui/format';",
        "import { initials } from '../src/ui/shared';",
        "const lazy = () => import('../src/servers/schemas');",
      ].join('\n'),
    });
    expect(islandViolations(graph).map((v) => v.message)).toEqual([
      'islands/ServerTable.tsx → src/servers/service.ts',
      'islands/ServerTable.tsx → src/ui/format.ts',
      'islands/ServerTable.tsx → src/servers/schemas.ts (dynamic)',
    ]);
  });

  it('a read model may read the features its header names, through data modules only', () => {
    expect(declaredJoins('/**\n * Read model: joins servers, knowledge (counts for the cards).\n */\n')).toEqual([
      'servers',
      'knowledge',
    ]);
    expect(declaredJoins('// joins servers and knowledge\n')).toEqual([]);
    const reads = [
      "import { toServer } from '../servers/rows';",
      "import { toItem } from '../knowledge/rows';",
      "import { ServerCard } from '../servers/views/Card';",
      "import { serverPages } from '../servers/pages';",
    ].join('\n');
    const graph = plant({
      'src/servers/rows.ts': '',
      'src/knowledge/rows.ts': '',
      'src/servers/views/Card.tsx': '',
      'src/servers/pages.tsx': '',
      'src/dashboard/stats.ts': `/** Read model: joins servers. */\n${reads}`,
      'src/reports/stats.ts': reads,
    });
    expect(crossFeatureViolations(graph).map((v) => v.message)).toEqual([
      'src/dashboard/stats.ts → src/knowledge/rows.ts',
      'src/dashboard/stats.ts → src/servers/views/Card.tsx',
      'src/dashboard/stats.ts → src/servers/pages.tsx',
      'src/reports/stats.ts → src/servers/rows.ts',
      'src/reports/stats.ts → src/knowledge/rows.ts',
      'src/reports/stats.ts → src/servers/views/Card.tsx',
      'src/reports/stats.ts → src/servers/pages.tsx',
    ]);
  });
});

describe('the real tree (src/, islands/, jobs/)', () => {
  it('has no circle and no back-arrow', () => {
    const violations = importViolations(realGraph);
    // Print them all, so one run lists everything left to fix.
    if (violations.length > 0) console.error(violations.map((v) => `${v.rule}: ${v.message}`).join('\n'));
    expect(violations.map((v) => `${v.rule}: ${v.message}`)).toEqual([]);
  });
});
