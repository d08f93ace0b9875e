/** The editor's "Review every N days" field (issue 22), browser-safe. */

export const REVIEW_INTERVAL_MAX = 3650;

/**
 * The field's text as the body's reviewIntervalDays: empty on a new item leaves it out (its type's default applies),
 * empty on an existing one clears the review date; a number is sent as it is for the server to check.
 */
export function reviewIntervalPayload(
  text: string | undefined,
  isNew: boolean,
): { reviewIntervalDays?: number | null } {
  const t = (text ?? '').trim();
  if (!t) return isNew ? {} : { reviewIntervalDays: null };
  const n = Number(t);
  // Not a number at all (the number input gives '' then anyway): leave the review date as it is.
  return Number.isFinite(n) ? { reviewIntervalDays: n } : {};
}
