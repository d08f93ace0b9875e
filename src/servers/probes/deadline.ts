/** Thrown when a probe's whole time is up. */
export class ProbeTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/**
 * Runs work with a deadline over all of it (lookups, connects, redirects, reading): when time is up the signal
 * aborts (the work closes its sockets) and the promise rejects with ProbeTimeout, whatever the work is waiting on.
 */
export async function withDeadline<T>(timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ProbeTimeout(timeoutMs));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), timeUp]);
  } catch (err) {
    // The work may fail first with its own abort error: time being up is the reason all the same.
    throw controller.signal.aborted ? new ProbeTimeout(timeoutMs) : err;
  } finally {
    clearTimeout(timer);
  }
}
