import type { VisibilityState } from '@tanstack/react-table';
import { COLUMNS_STORAGE_KEY, SERVER_COLUMNS } from '../../../src/servers/shared';

/** The table's columns: spec §9's, and availability (uptime % over 30 days from the rollups), hidden at first. */
export const TABLE_COLUMNS: readonly { id: string; label: string; visible: boolean }[] = [
  ...SERVER_COLUMNS.filter((c) => c.id !== 'actions'),
  { id: 'availability', label: 'Availability (30 d)', visible: false },
  ...SERVER_COLUMNS.filter((c) => c.id === 'actions'),
];

/** Spec §9 defaults: which server table columns show. */
export function defaultVisibility(): VisibilityState {
  return Object.fromEntries(TABLE_COLUMNS.map((c) => [c.id, c.visible]));
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
