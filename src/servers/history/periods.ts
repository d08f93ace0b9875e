/**
 * The uptime periods, on rollup boundaries so a figure equals a direct count over the raw checks:
 * - 24h: checks at or after the start of the current UTC hour minus 24 hours (the 24 whole hours before the
 *   current one, plus the current hour so far): the hourly rollups with hour ≥ that start;
 * - 7d/30d/90d: checks at or after UTC midnight of today minus N days (the N whole days before today, plus
 *   today so far): the daily rollups with day ≥ that date.
 * Availability: checks that found the server up (online or warning) over the checks not in maintenance, in
 * percent; null when there are none.
 */
export const PERIODS = ['24h', '7d', '30d', '90d'] as const;
export type Period = (typeof PERIODS)[number];
export type Uptime = Record<Period, number | null>;

export const DAY_PERIODS = { '7d': 7, '30d': 30, '90d': 90 } as const;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The start of the UTC hour that holds `at`. */
export const hourStart = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
/** The start of the UTC day that holds `at`. */
export const dayStart = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
/** A UTC day as the date column holds it: YYYY-MM-DD. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Where each period starts, for `now`: the 24h one as an instant, the day ones as the first UTC day. */
export function periodStarts(now: Date) {
  const day = dayStart(now).getTime();
  return {
    hours24: new Date(hourStart(now).getTime() - 24 * HOUR_MS),
    days: {
      '7d': dayOf(new Date(day - 7 * DAY_MS)),
      '30d': dayOf(new Date(day - 30 * DAY_MS)),
      '90d': dayOf(new Date(day - 90 * DAY_MS)),
    },
  };
}

/** Percent up among the counted checks, to 3 decimals; null without any. */
export function availability(up: number, counted: number): number | null {
  if (!counted) return null;
  return Math.round((100_000 * up) / counted) / 1000;
}
