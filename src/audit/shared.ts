/** The filters of the audit trail as a URL's query (empty ones left out), for links that keep them. */
export function auditQueryString(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const AUDIT_FILTER_NAMES = ['actor', 'action', 'entityType', 'entityId', 'from', 'to'] as const;

export type AuditFilterValues = Partial<Record<(typeof AUDIT_FILTER_NAMES)[number], string>>;

/** Only the filter fields of a query (no cursor, no limit), as sent. */
export function filterValues(query: Record<string, string | undefined>): AuditFilterValues {
  const values: AuditFilterValues = {};
  for (const name of AUDIT_FILTER_NAMES) if (query[name]) values[name] = query[name];
  return values;
}
