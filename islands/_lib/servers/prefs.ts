import type { VisibilityState } from '@tanstack/react-table';
import { COLUMNS_STORAGE_KEY, SERVER_COLUMNS } from '../../../src/servers/shared';

/** Spec §9 defaults: which server table columns show. */
export function defaultVisibility(): VisibilityState {
  return Object.fromEntries(SERVER_COLUMNS.map((c) => [c.id, c.visible]));
}

/** Saved column visibility from local storage (key server-table-columns), else the defaults. */
export function loadVisibility(): VisibilityState {
  try {
    const saved = JSON.parse(localStorage.getItem(COLUMNS_STORAGE_KEY) ?? 'null') as VisibilityState | null;
    if (saved && typeof saved === 'object') return { ...defaultVisibility(), ...saved };
  } catch {
    // Unreadable or blocked storage: defaults.
  }
  return defaultVisibility();
}

/** Remembers column visibility. */
export function saveVisibility(v: VisibilityState): void {
  try {
    localStorage.setItem(COLUMNS_STORAGE_KEY, JSON.stringify(v));
  } catch {
    // Storage full or blocked: the choice lasts this visit only.
  }
}

export interface Filters {
  q: string;
  environment: string;
  status: string;
}

/** /infrastructure?q=…&environment=…&status=… with only the set filters. */
export function filtersUrl(f: Filters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ q: f.q.trim(), environment: f.environment, status: f.status, ...extra }))
    if (v) params.set(k, v);
  const qs = params.toString();
  return qs ? `/infrastructure?${qs}` : '/infrastructure';
}
