/** Measures what a page ships (gzip bytes of HTML and JS) and how fast the server answers it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Assets } from '../../src/ui/assets';
import { KeepAliveConnection } from './http-client';

interface Meta {
  outputs: Record<string, { imports: { path: string; kind: string }[] }>;
}

/** Every JS file a set of entry URLs pulls in, following static and (optionally) dynamic imports. */
function closure(buildDir: string, meta: Meta, urls: string[], dynamic: boolean): Set<string> {
  const byFile = new Map(Object.entries(meta.outputs).map(([file, o]) => [path.resolve(file), o]));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !file.endsWith('.js')) return;
    seen.add(file);
    for (const imp of byFile.get(file)?.imports ?? []) {
      if (imp.kind === 'import-statement' || (dynamic && imp.kind === 'dynamic-import')) visit(path.resolve(imp.path));
    }
  };
  for (const url of urls) visit(path.join(buildDir, url.replace('/static/build/', '')));
  return seen;
}

const gzBytes = (file: string) => readFileSync(`${file}.gz`).length;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export interface PageWeight {
  html: string;
  initialJs: string;
  allJs: string;
  initialBytes: number;
  allBytes: number;
}

/**
 * initialJs: scripts, modulepreloads and eager islands with their static imports (what loads up front);
 * allJs: plus lazy islands and dynamic imports (everything the page can load).
 */
export function pageWeight(html: string, assets: Assets): PageWeight {
  const meta = JSON.parse(readFileSync(path.join(assets.dir, 'meta.json'), 'utf8')) as Meta;
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
  const islands = [...html.matchAll(/<app-island([^>]*)>/g)].map((m) => m[1]);
  const eager = islands.filter((a) => !a.includes('data-load=')).map((a) => /data-src="([^"]+)"/.exec(a)![1]);
  const lazy = islands.filter((a) => a.includes('data-load=')).map((a) => /data-src="([^"]+)"/.exec(a)![1]);
  const initial = new Set([
    ...scripts.map((s) => path.join(assets.dir, s.replace('/static/build/', ''))),
    ...closure(assets.dir, meta, [...preloads, ...eager], false),
  ]);
  const all = new Set([...initial, ...closure(assets.dir, meta, [...eager, ...lazy], true)]);
  const sum = (files: Set<string>) => [...files].reduce((n, f) => n + gzBytes(f), 0);
  const initialBytes = sum(initial);
  const allBytes = sum(all);
  return {
    html: kib(gzipSync(html).length),
    initialJs: kib(initialBytes),
    allJs: kib(allBytes),
    initialBytes,
    allBytes,
  };
}

/**
 * p50/p95 latency (ms) of GET url at `concurrency` parallel keep-alive connections for `count` requests,
 * after `warmup` unmeasured ones (the steady state: JIT-compiled code, each pooled connection's prepared
 * statements). Bodies are read as bytes, gzip accepted and never unpacked, as wrk does.
 */
export async function latency(
  url: string,
  headers: Record<string, string>,
  concurrency = 10,
  count = 300,
  warmup = 300,
) {
  const target = new URL(url);
  const connections = Array.from(
    { length: concurrency },
    () => new KeepAliveConnection(target, { ...headers, 'Accept-Encoding': 'gzip' }),
  );
  const run = async (requests: number) => {
    const times: number[] = [];
    let next = 0;
    let failures = 0;
    const worker = async (connection: KeepAliveConnection) => {
      while (next < requests) {
        next++;
        const start = performance.now();
        const status = await connection.get();
        if (status < 200 || status >= 300) failures++;
        times.push(performance.now() - start);
      }
    };
    await Promise.all(connections.map(worker));
    return { times, failures };
  };
  try {
    await run(warmup);
    const { times, failures } = await run(count);
    times.sort((a, b) => a - b);
    const pick = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);
    return { p50: pick(50), p95: pick(95), failures };
  } finally {
    for (const connection of connections) connection.close();
  }
}
