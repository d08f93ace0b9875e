/**
 * The read page's own budgets: what it ships beyond the item's content, and how its latency compares with the
 * same bytes served as a static file by the same process.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { renderDocument } from '../../src/markdown/document';
import type { Assets } from '../../src/ui/assets';
import { latency, pageWeight } from './measure';

/** The level src/http/compress.ts gzips pages at, so the static copy sends the very bytes the page does. */
const PAGE_GZIP_LEVEL = 4;
const STATIC_NAME = 'bench-read-page.html';

export interface ReadPageWeight {
  initialJsBytes: number;
  pageGzipBytes: number;
  contentGzipBytes: number;
  /** gzip(page HTML) − gzip(renderDocument(content).html): the page's own markup, header, shell. */
  beyondContentBytes: number;
}

export function readPageWeight(html: string, content: string, assets: Assets): ReadPageWeight {
  const pageGzipBytes = gzipSync(html).length;
  const contentGzipBytes = gzipSync(renderDocument(content).html).length;
  return {
    initialJsBytes: pageWeight(html, assets).initialBytes,
    pageGzipBytes,
    contentGzipBytes,
    beyondContentBytes: pageGzipBytes - contentGzipBytes,
  };
}

export interface AgainstStatic {
  page: { p50: string; p95: string; failures: number };
  file: { p50: string; p95: string; failures: number };
  /** page p95 ÷ static file p95. */
  ratio: number;
}

/**
 * p50/p95 of the page, then (back to back, same latency() settings) of its HTML written into the served build
 * directory with a precompressed .gz, as /static/build/bench-read-page.html. The files go again whatever happens.
 */
export async function latencyAgainstStatic(
  baseUrl: string,
  pagePath: string,
  headers: Record<string, string>,
  html: string,
  buildDir: string,
): Promise<AgainstStatic> {
  const file = path.join(buildDir, STATIC_NAME);
  const files = [file, `${file}.gz`];
  try {
    writeFileSync(file, html);
    writeFileSync(`${file}.gz`, gzipSync(html, { level: PAGE_GZIP_LEVEL }));
    const page = await latency(baseUrl + pagePath, headers);
    const copy = await latency(`${baseUrl}/static/build/${STATIC_NAME}`, headers);
    return { page, file: copy, ratio: Number(page.p95) / Number(copy.p95) };
  } finally {
    for (const f of files) rmSync(f, { force: true });
  }
}
