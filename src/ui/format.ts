/** Pure display helpers shared by server views and islands (no server imports here). */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 days ago", "in 2 hours", "just now". */
export function relativeTime(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (!value) return 'Unknown';
  const date = typeof value === 'string' ? new Date(value) : value;
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

/** A date and time in the user's timezone, e.g. "22 Nov 2026, 14:05". */
export function formatDateTime(value: string | Date | null | undefined, timeZone = 'UTC'): string {
  if (!value) return 'Never';
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

/** A date in the user's timezone, e.g. "22 Nov 2026". */
export function formatDate(value: string | Date | null | undefined, timeZone = 'UTC'): string {
  if (!value) return 'Never';
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeZone }).format(date);
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
  return ({ online: 'green', warning: 'yellow', offline: 'red', maintenance: 'blue' } as const)[status ?? ''] ?? 'neutral';
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
