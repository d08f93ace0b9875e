/**
 * Lighthouse's performance category on one page with its default mobile config (simulated Slow 4G, 4× CPU), in
 * the system's Chromium (never one Lighthouse would download), signed in through the request headers.
 */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export interface LighthouseResult {
  score: number | null;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's own warnings (e.g. the page was redirected), printed beside the score. */
  warnings: string[];
}

const metric = (audits: Record<string, { numericValue?: number }>, id: string) => audits[id]?.numericValue ?? NaN;

/** Throws with Lighthouse's reason when it could not measure the page. */
export async function lighthouseMobile(url: string, headers: Record<string, string>): Promise<LighthouseResult> {
  const chrome = await launch({
    chromePath: CHROME_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic'],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      extraHeaders: headers,
      output: 'json',
      logLevel: 'error',
    });
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    return {
      score: lhr.categories.performance.score,
      fcpMs: metric(lhr.audits, 'first-contentful-paint'),
      lcpMs: metric(lhr.audits, 'largest-contentful-paint'),
      tbtMs: metric(lhr.audits, 'total-blocking-time'),
      cls: metric(lhr.audits, 'cumulative-layout-shift'),
      warnings: lhr.runWarnings.map(String),
    };
  } finally {
    chrome.kill();
  }
}
