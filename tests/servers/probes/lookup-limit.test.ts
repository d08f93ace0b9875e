import { describe, expect, it, vi } from 'vitest';

/** A resolver that answers only when the test says so: stands for a nameserver gone silent. */
const pending: (() => void)[] = [];
let running = 0;
let most = 0;
vi.mock('node:dns/promises', () => ({
  lookup: () =>
    new Promise((resolve) => {
      running++;
      most = Math.max(most, running);
      pending.push(() => {
        running--;
        resolve([{ address: '127.0.0.1', family: 4 }]);
      });
    }),
}));

describe('system lookups', () => {
  it(`run at most MAX_SYSTEM_LOOKUPS at a time, so a silent nameserver leaves libuv threads free`, async () => {
    const { MAX_SYSTEM_LOOKUPS, systemLookup } = await import('../../../src/servers/probes/targets');
    const all = Array.from({ length: 7 }, (_, i) => systemLookup(`host-${i}.example`));
    await vi.waitFor(() => expect(running).toBe(MAX_SYSTEM_LOOKUPS));
    while (pending.length) {
      pending.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await vi.waitFor(async () => expect(await Promise.all(all)).toHaveLength(7));
    expect(most).toBe(MAX_SYSTEM_LOOKUPS);
  });
});
