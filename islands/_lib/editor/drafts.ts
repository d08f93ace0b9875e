import type { Json } from '../../index';

/** What the editor keeps locally until it is saved (spec: an unsaved draft survives a reload). */
export interface Draft {
  fields: { [key: string]: Json };
  /** The version the draft was based on (null for a new item). */
  baseVersion: number | null;
  savedAt: string;
}

const PREFIX = 'opshub-draft:';

/** Draft key: base + id for an existing item, base + "new" + kind for a new one. */
export const draftKey = (base: string, id: string | null, kind: string) => `${PREFIX}${base}:${id ?? `new:${kind}`}`;

/** The stored draft, or null (also when storage is unavailable or the entry is corrupt). */
export function loadDraft(key: string): Draft | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const draft = JSON.parse(raw) as Draft;
    return draft && typeof draft === 'object' && draft.fields ? draft : null;
  } catch {
    return null;
  }
}

/** Stores the draft; quota errors (e.g. huge inline images) are ignored. */
export function saveDraft(key: string, draft: Draft): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    /* storage full or disabled: the draft is just not kept */
  }
}

export function clearDraft(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    /* ignore */
  }
}
