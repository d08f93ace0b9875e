import type { Logger } from '../http/logger';

/** A background run that is started by kicks: one run at a time, a kick during a run makes it run once more. */
export interface CoalescedRun {
  /** Starts a run now in the background, or once more after the current one. */
  kick(): void;
  /** Resolves when no run is in progress (a run started meanwhile is waited for too). */
  settled(): Promise<void>;
}

/** Wraps `run` so kicks never overlap it and a burst of kicks costs at most one extra run; errors are logged. */
export function coalescedRun(run: () => Promise<unknown>, logger: Logger, what: string): CoalescedRun {
  let current: Promise<void> | undefined;
  let again = false;
  const loop = async () => {
    try {
      do {
        again = false;
        await run();
      } while (again);
    } catch (err) {
      logger.error({ err }, `${what} failed`);
    } finally {
      current = undefined;
    }
  };
  return {
    kick() {
      if (current) {
        again = true;
        return;
      }
      current = new Promise<void>((resolve) => setImmediate(resolve)).then(loop);
    },
    async settled() {
      while (current) await current;
    },
  };
}
