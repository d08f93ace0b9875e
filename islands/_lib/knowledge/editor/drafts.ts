import type { ServerSummary } from '../../../../src/runbooks/shared';

/** What the editor keeps locally until it is saved (spec: an unsaved draft survives a reload). */
export interface Draft<F> {
  fields: F;
  /** The linked servers as the draft left them (issue 23). */
  servers?: ServerSummary[];
  /** The version the draft was based on (null for a new item). */
  baseVersion: number | null;
  savedAt: string;
}

const PREFIX = 'opshub-draft:';

/** Draft key: base + id for an existing item, base + "new" + kind for a new one. */
export const draftKey = (base: string, id: string | null, kind: string) => `${PREFIX}${base}:${id ?? `new:${kind}`}`;

/** The stored draft, or null (also when storage is unavailable or the entry is corrupt). */
export function loadDraft<F>(key: string): Draft<F> | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const draft = JSON.parse(raw) as Draft<F>;
    return draft && typeof draft === 'object' && draft.fields ? draft : null;
  } catch {
    return null;
  }
}

/** Stores the draft; quota errors (e.g. huge inline images) are ignored. */
export function saveDraft<F>(key: string, draft: Draft<F>): void {
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

/** The editor's drafts for one key. */
export interface DraftStore<F> {
  load(): Draft<F> | null;
  save(draft: Draft<F>): void;
  clear(): void;
}

/**
 * Browser storage with Settings › Auto-save documents on. With it off the editor leaves storage alone:
 * it writes no draft, offers none kept earlier and removes none, so an old draft is still there (and offered)
 * once auto-save is back on; the editor warns before leaving with unsaved changes instead.
 */
export function draftStore<F>(key: string, autoSave: boolean): DraftStore<F> {
  if (!autoSave) return { load: () => null, save: () => {}, clear: () => {} };
  return { load: () => loadDraft<F>(key), save: (draft) => saveDraft(key, draft), clear: () => clearDraft(key) };
}

/** Makes the browser ask before leaving the page while `dirty()` says there are unsaved changes; returns the undo. */
export function warnBeforeLeaving(dirty: () => boolean): () => void {
  const onBeforeUnload = (e: BeforeUnloadEvent) => {
    if (!dirty()) return;
    e.preventDefault();
    e.returnValue = ''; // older browsers ask only when returnValue is set
  };
  window.addEventListener('beforeunload', onBeforeUnload);
  return () => window.removeEventListener('beforeunload', onBeforeUnload);
}

/**
 * Calls `save` when the page is left or hidden (reload, navigation, tab switch, closing), so what was typed in the
 * last moments before the debounced draft write is kept too; returns the undo.
 */
export function saveOnLeave(save: () => void): () => void {
  const onHidden = () => document.visibilityState === 'hidden' && save();
  window.addEventListener('pagehide', save);
  document.addEventListener('visibilitychange', onHidden);
  return () => {
    window.removeEventListener('pagehide', save);
    document.removeEventListener('visibilitychange', onHidden);
  };
}
