import { formatDateTime } from '../../ui/shared';

/** Markdown building helpers for the built-in engine; every data value is escaped so it stays data. */

/** Escapes text for inline markdown (no links, emphasis, HTML or table breaks can come from data). */
export function esc(value: unknown): string {
  const s = value === null || value === undefined || value === '' ? '—' : String(value);
  return s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_{}[\]()<>#+!|~]/g, (m) => `\\${m}`);
}

/** A markdown link whose label is escaped; the href is one of our own in-app paths. */
export const link = (label: unknown, href: string) => `[${esc(label)}](${href})`;

/** A GFM table. */
export function table(headers: string[], rows: string[][]): string {
  const head = `| ${headers.join(' | ')} |`;
  const rule = `| ${headers.map(() => '---').join(' | ')} |`;
  return [head, rule, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/**
 * A time in the asker's timezone, naming it: "22 Nov 2026, 7:05 pm (Australia/Sydney)". Safe in markdown as is:
 * Intl accepts only IANA names (letters, digits, / _ + -), so the zone carries no markup.
 */
export function when(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return 'never';
  return `${formatDateTime(iso, timeZone)} (${timeZone})`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
