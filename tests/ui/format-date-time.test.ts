import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../src/ui/shared';

/** formatDateTime keeps its answers by zone and minute: they must equal a fresh format of each exact time. */
const fresh = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);

describe('formatDateTime', () => {
  const zones = [
    'UTC',
    'Australia/Sydney',
    'America/New_York',
    'Asia/Kolkata',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
  ];

  it('answers what Intl answers for every second around DST changes and at random times, in any order', () => {
    const times: number[] = [];
    // Sydney's and New York's 2026 changes and Lord Howe's half-hour one, every 17 s for two hours around each.
    for (const change of ['2026-04-05T03:00:00+11:00', '2026-11-01T02:00:00-04:00', '2026-10-04T02:00:00+10:30']) {
      const at = Date.parse(change);
      for (let t = at - 3_600_000; t < at + 3_600_000; t += 17_000) times.push(t);
    }
    for (let i = 0; i < 3_000; i++) times.push(Math.floor(Math.random() * 4e12));
    times.sort(() => Math.random() - 0.5);
    for (const t of times) {
      for (const zone of zones)
        expect(formatDateTime(new Date(t), zone), `${t} ${zone}`).toBe(fresh(new Date(t), zone));
    }
  });

  it('takes ISO strings, formats times before 1970 exactly, and says Never for none', () => {
    expect(formatDateTime('2026-11-27T23:59:59.999Z', 'UTC')).toBe(fresh(new Date('2026-11-27T23:59:59.999Z'), 'UTC'));
    const old = new Date('1890-06-01T10:00:30Z');
    expect(formatDateTime(old, 'Europe/Amsterdam')).toBe(fresh(old, 'Europe/Amsterdam'));
    expect(formatDateTime(null, 'UTC')).toBe('Never');
  });
});
