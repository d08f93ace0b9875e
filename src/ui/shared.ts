/** Pure display helpers shared by server views and islands (no server imports here). */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

// Building an Intl formatter costs far more than formatting with one, so each is made once.
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const numbers = new Intl.NumberFormat('en-AU');
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** The en-AU formatter for a style and timezone, made on first use. */
function dateTimeFormat(style: 'date' | 'dateTime', timeZone: string): Intl.DateTimeFormat {
  const key = `${style} ${timeZone}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(
      'en-AU',
      style === 'date' ? { dateStyle: 'medium', timeZone } : { dateStyle: 'medium', timeStyle: 'short', timeZone },
    );
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** 12,345 */
export const formatNumber = (n: number): string => numbers.format(n);

/** "3 days ago", "in 2 hours", "just now". */
export function relativeTime(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (!value) return 'Unknown';
  const date = typeof value === 'string' ? new Date(value) : value;
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

/**
 * formatDateTime's answers by zone and minute (its format shows no seconds): a page shows the same health rounds'
 * times many times over, and every server's rounds fall on the same minutes (a format costs ~1.3 µs, a kept answer ~0.2 µs).
 */
const formattedMinutes = new Map<string, string>();
const MAX_FORMATTED_MINUTES = 5_000;

/** A date and time in the user's timezone (required: a view that forgets it does not compile), e.g. "22 Nov 2026, 2:05 pm". */
export function formatDateTime(value: string | Date | null | undefined, timeZone: string): string {
  if (!value) return 'Never';
  const date = typeof value === 'string' ? new Date(value) : value;
  const ms = date.getTime();
  // Before 1970 some zones' offsets had seconds (local mean time): format those exactly.
  if (!(ms >= 0)) return dateTimeFormat('dateTime', timeZone).format(date);
  const key = `${timeZone} ${Math.floor(ms / 60_000)}`;
  let text = formattedMinutes.get(key);
  if (text === undefined) {
    if (formattedMinutes.size >= MAX_FORMATTED_MINUTES) formattedMinutes.clear();
    text = dateTimeFormat('dateTime', timeZone).format(date);
    formattedMinutes.set(key, text);
  }
  return text;
}

/** A date in the user's timezone (required), e.g. "22 Nov 2026". */
export function formatDate(value: string | Date | null | undefined, timeZone: string): string {
  if (!value) return 'Never';
  const date = typeof value === 'string' ? new Date(value) : value;
  return dateTimeFormat('date', timeZone).format(date);
}

/** Spec: whole days (seconds / 86400) plus remaining hours, or N/A when absent. */
export function formatUptime(seconds: number | null | undefined): string {
  if (!seconds || seconds <= 0) return 'N/A';
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  return `${days}d ${hours}h`;
}

export type BadgeColour = 'green' | 'yellow' | 'red' | 'blue' | 'purple' | 'neutral';

/** Spec: online green, warning yellow, offline red, maintenance blue, other neutral. */
export function statusColour(status: string | null | undefined): BadgeColour {
  return (
    ({ online: 'green', warning: 'yellow', offline: 'red', maintenance: 'blue' } as const)[status ?? ''] ?? 'neutral'
  );
}

/** Spec: production red, staging yellow, development green, other neutral. */
export function environmentColour(environment: string | null | undefined): BadgeColour {
  return ({ production: 'red', staging: 'yellow', development: 'green' } as const)[environment ?? ''] ?? 'neutral';
}

/** Initials for an avatar: "Ada Lovelace" → "AL". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase() || '?';
}
