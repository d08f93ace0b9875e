/**
 * The offline pack's registration line, run by boot.js on every page (the worker itself is never shipped to a page):
 * a signed-in page (`<meta name="offline-pack" content="{user id}">`) registers /sw.js and asks it to refresh the pack
 * now and every 10 minutes while open, naming the user (a pack of another user is emptied at once); a signed-out page
 * (`off`) tells a worker still in charge to empty the pack.
 */
const REFRESH_MS = 10 * 60_000;

/** Periodic Background Sync (Chromium, installed apps only): not in TypeScript's DOM types. */
type PeriodicSyncRegistration = ServiceWorkerRegistration & {
  periodicSync?: { register(tag: string, options: { minInterval: number }): Promise<void> };
};

/** Registers the offline pack's worker on a signed-in page, or tells it to empty the pack on a signed-out one. */
export function initOfflinePack(): void {
  const sw = navigator.serviceWorker;
  const user = document.querySelector<HTMLMetaElement>('meta[name="offline-pack"]')?.content;
  if (!sw || !user) return;
  if (user === 'off') {
    sw.controller?.postMessage({ type: 'clear' });
    return;
  }
  sw.register('/sw.js', { scope: '/' })
    .then(() => sw.ready)
    .then((reg) => {
      const ping = () => reg.active?.postMessage({ type: 'sync', user });
      ping();
      setInterval(ping, REFRESH_MS);
      // An installed app may also be woken now and then to refresh the pack (where the browser allows it).
      (reg as PeriodicSyncRegistration).periodicSync
        ?.register('offline-pack', { minInterval: REFRESH_MS })
        .catch(() => {});
    })
    .catch(() => {});
}
