/**
 * A page on a slow phone: 360 × 740 (Galaxy S8), cold cache, 4× CPU slowdown and Slow 4G as Lighthouse defines it
 * (150 ms RTT, 1.6 Mbps down, 750 Kbps up). Measured in the page from navigation start: the first frame in which
 * the title (h1) and the content's first paragraph are both on screen, and FCP and LCP.
 */
import { devices, type Browser } from 'playwright-core';
import { signedInContext } from '../helpers/browser';

const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;

export interface PhoneTimes {
  /** ms from navigation start to the first frame with the title and first paragraph in the viewport; null if never. */
  readyMs: number | null;
  fcpMs: number | null;
  lcpMs: number | null;
}

/**
 * Runs in the page before its own scripts: a frame-by-frame check, and the paint timings. A string, not a function:
 * tsx compiles functions with esbuild's keepNames, whose __name helper does not exist in the page.
 */
const WATCH_FIRST_SCREEN = `(() => {
  const marks = { readyMs: null, fcpMs: null, lcpMs: null };
  window.benchMarks = marks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') marks.fcpMs = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    marks.lcpMs = entries[entries.length - 1].startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const onScreen = (el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  };
  const check = () => {
    if (onScreen(document.querySelector('h1')) && onScreen(document.querySelector('.prose p'))) {
      marks.readyMs = performance.now();
    } else {
      requestAnimationFrame(check);
    }
  };
  requestAnimationFrame(check);
})();`;

async function oneRun(browser: Browser, url: string, cookie: string): Promise<PhoneTimes> {
  const context = await signedInContext(browser, new URL(url).origin, cookie, devices['Galaxy S8']);
  try {
    const page = await context.newPage();
    await page.addInitScript(WATCH_FIRST_SCREEN);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page
      .waitForFunction(() => (window as unknown as { benchMarks: PhoneTimes }).benchMarks.readyMs !== null, null, {
        timeout: 10_000,
      })
      .catch(() => undefined);
    return await page.evaluate(() => (window as unknown as { benchMarks: PhoneTimes }).benchMarks);
  } finally {
    await context.close();
  }
}

const median = (values: (number | null)[]) => {
  if (values.some((v) => v === null)) return null;
  const sorted = (values as number[]).toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** The median of `runs` cold loads of url, each in a new context; also every run's figures. */
export async function slowPhone(browser: Browser, url: string, cookie: string, runs = 3) {
  const all: PhoneTimes[] = [];
  for (let i = 0; i < runs; i++) all.push(await oneRun(browser, url, cookie));
  const median3: PhoneTimes = {
    readyMs: median(all.map((t) => t.readyMs)),
    fcpMs: median(all.map((t) => t.fcpMs)),
    lcpMs: median(all.map((t) => t.lcpMs)),
  };
  return { median: median3, runs: all };
}
