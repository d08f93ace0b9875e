import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollWhileVisible } from '../../src/runbooks/shared/poll';

/** The Servers refresh rule shared by the read page's panel and the category view's preview. */

const EVERY = 1000;

/** A document whose visibility the test switches, as a browser switching tabs does. */
class FakeDocument extends EventTarget {
  visibilityState: 'visible' | 'hidden' = 'visible';
  show(state: 'visible' | 'hidden') {
    this.visibilityState = state;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

let doc: FakeDocument;
beforeEach(() => {
  vi.useFakeTimers();
  doc = new FakeDocument();
  vi.stubGlobal('document', doc);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('pollWhileVisible', () => {
  it('asks once per interval while visible, never while hidden, and at once on return after longer', async () => {
    const refresh = vi.fn(async () => true);
    pollWhileVisible(EVERY, refresh);
    await vi.advanceTimersByTimeAsync(EVERY - 1);
    expect(refresh).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(EVERY + 1);
    expect(refresh).toHaveBeenCalledTimes(2);

    doc.show('hidden');
    await vi.advanceTimersByTimeAsync(5 * EVERY);
    expect(refresh).toHaveBeenCalledTimes(2);
    doc.show('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('back in view within the interval waits for the rest of it', async () => {
    const refresh = vi.fn(async () => true);
    pollWhileVisible(EVERY, refresh);
    await vi.advanceTimersByTimeAsync(EVERY);
    expect(refresh).toHaveBeenCalledTimes(1);
    doc.show('hidden');
    await vi.advanceTimersByTimeAsync(EVERY / 2);
    doc.show('visible');
    await vi.advanceTimersByTimeAsync(EVERY / 2 - 1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('stops when a refresh says there is nothing more to ask, or when stopped; a throw tries again', async () => {
    const done = vi.fn(async () => false);
    pollWhileVisible(EVERY, done);
    await vi.advanceTimersByTimeAsync(5 * EVERY);
    doc.show('visible');
    await vi.advanceTimersByTimeAsync(5 * EVERY);
    expect(done).toHaveBeenCalledTimes(1);

    const refresh = vi.fn(async () => true);
    const stop = pollWhileVisible(EVERY, refresh);
    await vi.advanceTimersByTimeAsync(EVERY);
    stop();
    doc.show('visible');
    await vi.advanceTimersByTimeAsync(5 * EVERY);
    expect(refresh).toHaveBeenCalledTimes(1);

    const flaky = vi.fn(async () => {
      throw new Error('offline');
    });
    pollWhileVisible(EVERY, flaky);
    await vi.advanceTimersByTimeAsync(3 * EVERY);
    expect(flaky).toHaveBeenCalledTimes(3);
  });
});
