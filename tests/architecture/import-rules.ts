import type { ImportEdge, ImportGraph } from './import-graph';

/**
 * The import rules of ARCHITECTURE.md § Layout, as functions over an import graph so that a test can run them on
 * the real tree and on a planted one:
 * - no circle of file imports (type-only imports count: they tie the files together just the same);
 * - a feature uses another only through its service.ts, commands.ts, shared module (shared.ts or shared/) or a
 *   type from its schemas.ts; the policy layer (src/auth/policy.ts) is the one other module every feature asks;
 * - src/ui, src/http, src/db and src/markdown import no feature;
 * - islands/ import nothing under src/ but a browser-safe shared module (a feature's, or src/ui/shared.ts) or a type
 *   from a feature's schemas.ts.
 * A read model that joins several features (dashboard, reports, search, the assistant's tools) says so in its header,
 * `Read model: joins servers, knowledge`, and may then also read those named features' data modules; never their
 * routes, pages or views.
 */

/** src/ folders that are not features: cross-cutting layers (markdown is the one renderer every feature uses) and the browser runtime. */
const NOT_FEATURES = new Set(['db', 'http', 'ui', 'markdown', 'client']);
/** Layers that must not import any feature. */
const NEUTRAL_LAYERS = new Set(['db', 'http', 'ui', 'markdown']);
/** Authorisation in one place: every route, page and job asks it (ARCHITECTURE.md § API conventions). */
const POLICY = 'src/auth/policy.ts';

export interface Violation {
  rule: 'circle' | 'cross-feature' | 'layer-imports-feature' | 'island-imports-server';
  message: string;
}

/** The feature a file belongs to (src/<feature>/…), or undefined for layers, root files, islands and jobs. */
export function featureOf(file: string): string | undefined {
  const m = /^src\/([^/]+)\/.+/.exec(file);
  return m && !NOT_FEATURES.has(m[1]) ? m[1] : undefined;
}

const layerOf = (file: string) => /^src\/([^/]+)\//.exec(file)?.[1];

/** The part of a feature that islands may load: shared.ts or anything under shared/. */
const isSharedModule = (file: string, feature: string) =>
  file === `src/${feature}/shared.ts` || file.startsWith(`src/${feature}/shared/`);

/** What another feature may import of `feature`: service, commands, shared module, schemas types, the policy. */
function isPublicSurface(edge: ImportEdge, feature: string): boolean {
  const to = edge.to;
  if (to === POLICY) return true;
  if (to === `src/${feature}/service.ts` || to === `src/${feature}/commands.ts`) return true;
  if (isSharedModule(to, feature)) return true;
  return edge.typeOnly && to === `src/${feature}/schemas.ts`;
}

/** The features a file's header declares it joins (`Read model: joins a, b`), empty when it declares none. */
export function declaredJoins(header: string): string[] {
  const m = /Read model: joins ([a-z-]+(?:, [a-z-]+)*)/.exec(header);
  return m ? m[1].split(', ') : [];
}

/** Modules that answer HTTP or render: a read model reads data, never these. */
const isHttpOrView = (file: string) => /\/(api|pages|routes)\.tsx?$|\/views\/|-pages\.tsx$/.test(file);

/** A read model reading a feature it names in its header, through a data module. */
function isDeclaredJoin(graph: ImportGraph, edge: ImportEdge, feature: string): boolean {
  const header = graph.files.get(edge.from)?.header ?? '';
  return declaredJoins(header).includes(feature) && !isHttpOrView(edge.to);
}

const describeEdge = (e: ImportEdge) =>
  `${e.from} → ${e.to}${e.typeOnly ? ' (type)' : ''}${e.dynamic ? ' (dynamic)' : ''}`;

/** Cross-feature imports that bypass the other feature's public surface. */
export function crossFeatureViolations(graph: ImportGraph): Violation[] {
  return graph.edges
    .filter((e) => {
      const from = featureOf(e.from);
      const to = featureOf(e.to);
      return !!from && !!to && from !== to && !isPublicSurface(e, to) && !isDeclaredJoin(graph, e, to);
    })
    .map((e) => ({ rule: 'cross-feature' as const, message: describeEdge(e) }));
}

/** src/ui, src/http and src/db importing any feature file (types included). */
export function layerViolations(graph: ImportGraph): Violation[] {
  return graph.edges
    .filter((e) => NEUTRAL_LAYERS.has(layerOf(e.from) ?? '') && !!featureOf(e.to))
    .map((e) => ({ rule: 'layer-imports-feature' as const, message: describeEdge(e) }));
}

/** The display helpers that server views and islands share (the one browser-safe module of a layer). */
const UI_SHARED = 'src/ui/shared.ts';

/** islands/ importing src/ other than a shared module (a feature's or ui's) or a type from a feature's schemas.ts. */
export function islandViolations(graph: ImportGraph): Violation[] {
  return graph.edges
    .filter((e) => e.from.startsWith('islands/') && e.to.startsWith('src/') && e.to !== UI_SHARED)
    .filter((e) => {
      const feature = featureOf(e.to);
      if (!feature) return true;
      return !isSharedModule(e.to, feature) && !(e.typeOnly && e.to === `src/${feature}/schemas.ts`);
    })
    .map((e) => ({ rule: 'island-imports-server' as const, message: describeEdge(e) }));
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function tangledComponents(graph: ImportGraph): string[][] {
  const next = new Map<string, string[]>();
  for (const e of graph.edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (next.get(v) ?? []).includes(v)) components.push(component.sort());
  };
  for (const file of [...graph.files.keys()].sort()) if (!index.has(file)) connect(file);
  return components;
}

/** One circle through the component's first file, found by a breadth-first walk inside the component. */
function circleThrough(graph: ImportGraph, component: string[]): string[] {
  const inside = new Set(component);
  const start = component[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const e of graph.edges) {
      if (e.from !== v || !inside.has(e.to)) continue;
      if (e.to === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
        return [...path, start];
      }
      if (!cameFrom.has(e.to)) {
        cameFrom.set(e.to, v);
        queue.push(e.to);
      }
    }
  }
  return component;
}

/** Every circle of imports, one path per tangle: `a.ts → b.ts → a.ts`. */
export function circleViolations(graph: ImportGraph): Violation[] {
  return tangledComponents(graph).map((component) => ({
    rule: 'circle' as const,
    message:
      circleThrough(graph, component).join(' → ') +
      (component.length > 2 ? ` (tangle of ${component.length} files)` : ''),
  }));
}

/** All violations of all rules. */
export function importViolations(graph: ImportGraph): Violation[] {
  return [
    ...circleViolations(graph),
    ...crossFeatureViolations(graph),
    ...layerViolations(graph),
    ...islandViolations(graph),
  ];
}
