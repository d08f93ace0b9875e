import { flagValueWords as valueWords, REVIEW_FLAG_LABELS, type ReviewFlag, type ReviewFlagField } from './shared';

/** The words of review flags: the notification of a server change and the read page's "Needs review" lines. */

/** A field's name inside a sentence ("IP address", "hostname", "operating system"). */
export function fieldWords(field: ReviewFlagField): string {
  const label = REVIEW_FLAG_LABELS[field];
  return label.startsWith('IP') ? label : label.toLowerCase();
}

/** "IP address 127.0.0.1 → 127.0.0.2". */
export const fieldChangeWords = (c: { field: ReviewFlagField; from: string | null; to: string | null }) =>
  `${fieldWords(c.field)} ${valueWords(c.from)} → ${valueWords(c.to)}`;

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * "Ada changed web1 (IP address 127.0.0.1 → 127.0.0.2)", "An agent deleted web1": the start of a server_changed
 * notification (`server` is the name it had before the change).
 */
export function describeServerChange(
  byName: string,
  server: string,
  changes: { field: ReviewFlagField; from: string | null; to: string | null }[],
): string {
  const by = capitalised(byName);
  if (changes.some((c) => c.field === 'deleted')) return `${by} deleted ${server}`;
  return `${by} changed ${server} (${changes.map(fieldChangeWords).join(', ')})`;
}

/** "web1's IP address changed 127.0.0.1 → 127.0.0.2", "web1 was deleted": one flag on the read page (date and name follow). */
export function flagWords(flag: Pick<ReviewFlag, 'serverName' | 'field' | 'from' | 'to'>): string {
  if (flag.field === 'deleted') return `${flag.serverName} was deleted`;
  return `${flag.serverName}'s ${fieldWords(flag.field)} changed ${valueWords(flag.from)} → ${valueWords(flag.to)}`;
}
