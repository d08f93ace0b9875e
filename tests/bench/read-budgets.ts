/** The "Read page budgets" table: each figure beside its budget and whether it was met. */
import type { LighthouseResult } from './lighthouse';
import { LINKED_SERVERS, type LinkedServersCost } from './linked-servers';
import type { AgainstStatic, ReadPageWeight } from './read-page';
import type { PhoneTimes } from './slow-phone';

const KIB = 1024;
const JS_BUDGET_KIB = 25;
const HTML_BEYOND_CONTENT_KIB = 15;
const P95_BUDGET_MS = 30;
const STATIC_RATIO_BUDGET = 2;
const LIGHTHOUSE_BUDGET = 0.98;
const PHONE_BUDGET_MS = 1000;
/** Issue 23: a read with 20 linked servers costs at most 10% more (p95) than one with none. */
const LINKED_SERVERS_RATIO_BUDGET = 1.1;

const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;
const ms = (value: number | null) => (value === null || Number.isNaN(value) ? '—' : `${Math.round(value)} ms`);

/** Where a budget does not apply to this run (latency budgets are for PostgreSQL), the figure is only printed. */
function verdict(ok: boolean, applies = true) {
  if (!applies) return 'figure only (budget is for PostgreSQL)';
  return ok ? 'met' : '**MISSED**';
}

export class ReadBudgets {
  private readonly rows: string[] = [];

  private add(run: string, measure: string, figure: string, budget: string, result: string) {
    this.rows.push(`| ${run} | ${measure} | ${figure} | ${budget} | ${result} |`);
  }

  /** The page could not be measured at all on this run (it answered another status, a browser failed…). */
  notMeasured(run: string, measure: string, budget: string, why: string) {
    this.add(run, measure, `not measured: ${why.replace(/\s+/g, ' ').replaceAll('|', '/')}`, budget, 'not measured');
  }

  weight(run: string, w: ReadPageWeight) {
    const js = `≤ ${JS_BUDGET_KIB} KiB gzip`;
    this.add(
      run,
      'read page: JS up front',
      kib(w.initialJsBytes),
      js,
      verdict(w.initialJsBytes <= JS_BUDGET_KIB * KIB),
    );
    this.add(
      run,
      'read page: HTML beyond the content (1,000-word item)',
      `${kib(w.pageGzipBytes)} page − ${kib(w.contentGzipBytes)} content = ${kib(w.beyondContentBytes)}`,
      `≤ ${HTML_BEYOND_CONTENT_KIB} KiB gzip`,
      verdict(w.beyondContentBytes <= HTML_BEYOND_CONTENT_KIB * KIB),
    );
  }

  latency(run: string, t: AgainstStatic, budgetApplies: boolean) {
    const failed = (n: number) => (n ? `, ${n} failed` : '');
    this.add(
      run,
      'read page: latency, 10 at once',
      `p95 ${t.page.p95} ms (p50 ${t.page.p50}${failed(t.page.failures)})`,
      `p95 ≤ ${P95_BUDGET_MS} ms on PostgreSQL`,
      verdict(Number(t.page.p95) <= P95_BUDGET_MS && !t.page.failures, budgetApplies),
    );
    this.add(
      run,
      'same bytes as a static file (/static/build), back to back',
      `p95 ${t.file.p95} ms (p50 ${t.file.p50}${failed(t.file.failures)})`,
      '—',
      '—',
    );
    this.add(
      run,
      'read page p95 ÷ static file p95',
      `${t.ratio.toFixed(2)}×`,
      `≤ ${STATIC_RATIO_BUDGET}× on PostgreSQL`,
      verdict(t.ratio <= STATIC_RATIO_BUDGET, budgetApplies),
    );
  }

  linkedServers(run: string, c: LinkedServersCost, budgetApplies: boolean) {
    const failed = c.none.failures + c.linked.failures;
    this.add(
      run,
      `read page with ${LINKED_SERVERS} linked servers p95 ÷ the same item with none (back to back, 10 at once)`,
      `${c.ratio.toFixed(2)}× (p95 ${c.linked.p95.toFixed(1)} ms vs ${c.none.p95.toFixed(1)} ms; p50 ${c.linked.p50.toFixed(1)} vs ${c.none.p50.toFixed(1)}${failed ? `; ${failed} failed` : ''})`,
      `≤ ${LINKED_SERVERS_RATIO_BUDGET.toFixed(2)}× on PostgreSQL`,
      verdict(c.ratio <= LINKED_SERVERS_RATIO_BUDGET && !failed, budgetApplies),
    );
  }

  lighthouse(run: string, r: LighthouseResult) {
    const warnings = r.warnings.length ? `; warnings: ${r.warnings.join(' / ')}` : '';
    this.add(
      run,
      'Lighthouse mobile, performance (Slow 4G, 4× CPU, simulated)',
      `${r.score?.toFixed(2) ?? '—'} (FCP ${ms(r.fcpMs)}, LCP ${ms(r.lcpMs)}, TBT ${ms(r.tbtMs)}, CLS ${r.cls.toFixed(3)}${warnings})`,
      `≥ ${LIGHTHOUSE_BUDGET}`,
      verdict(r.score !== null && r.score >= LIGHTHOUSE_BUDGET),
    );
  }

  phone(run: string, median: PhoneTimes, runs: PhoneTimes[]) {
    const each = runs.map((t) => (t.readyMs === null ? 'never' : Math.round(t.readyMs))).join(', ');
    this.add(
      run,
      'slow phone (360 × 740, Slow 4G, 4× CPU, cold): title + first paragraph on screen, median of 3',
      `${median.readyMs === null ? 'not on screen in every run' : ms(median.readyMs)} (runs ${each} ms; FCP ${ms(median.fcpMs)}, LCP ${ms(median.lcpMs)})`,
      `≤ ${(PHONE_BUDGET_MS / 1000).toFixed(1)} s`,
      verdict(median.readyMs !== null && median.readyMs <= PHONE_BUDGET_MS),
    );
  }

  print() {
    console.log('\n### Read page budgets (a real-size 1,000-word knowledge item)\n');
    console.log('| run | measure | figure | budget | result |');
    console.log('|---|---|---|---|---|');
    for (const row of this.rows) console.log(row);
  }
}
