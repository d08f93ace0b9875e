/**
 * The refresh rule of a page's live Servers facts (the read page's panel and the category view's preview): ask every
 * `every` ms, only while the tab is visible, never twice within `every`; a tab that becomes visible after longer asks
 * at once. Browser-safe, no dependencies.
 */

/** One refresh: false when there is nothing more to ask (signed out, item gone, no server linked any more). */
export type Refresh = () => Promise<boolean>;

const visible = () => document.visibilityState === 'visible';

/** Starts refreshing; the answer stops it (an island's cleanup, or a page that lost what it refreshes). */
export function pollWhileVisible(every: number, refresh: Refresh): () => void {
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = (delay: number) => {
    clearTimeout(timer);
    if (!stopped && visible()) timer = setTimeout(() => void run(), Math.max(0, delay));
  };

  async function run(): Promise<void> {
    if (stopped || !visible()) return;
    last = Date.now();
    // A refresh that throws (offline) tries again next round.
    if (!(await refresh().catch(() => true))) stopped = true;
    schedule(every);
  }

  const onVisibility = () => {
    if (visible()) schedule(every - (Date.now() - last));
    else clearTimeout(timer);
  };

  document.addEventListener('visibilitychange', onVisibility);
  schedule(every);
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
