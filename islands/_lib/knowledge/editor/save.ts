import { editorItemOf, type ApiBase, type EditorItem, type Item } from '../../../../src/knowledge/shared';
import { api, ApiError } from '../../api';

export type SaveResult =
  | { ok: true; item: EditorItem }
  | { ok: false; reason: 'conflict' | 'invalid' | 'refused' | 'error'; message: string };

/** A 409 that is not a stale version: the item's type needs approvals before it is published (issue 22). */
const isApprovalNeeded = (e: ApiError) => e.status === 409 && e.body.includes('"approval_required"');

/** POST {base} (new) or PUT {base}/:id with the version the edit was based on; 409 → conflict, 400 → invalid. */
export async function saveItem(base: ApiBase, id: string | null, payload: object): Promise<SaveResult> {
  try {
    const item = await api<Item>(id ? 'PUT' : 'POST', id ? `${base}/${id}` : base, payload);
    return { ok: true, item: editorItemOf(item) };
  } catch (e) {
    if (e instanceof ApiError && isApprovalNeeded(e)) return { ok: false, reason: 'refused', message: e.serverMessage };
    if (e instanceof ApiError && e.status === 409) return { ok: false, reason: 'conflict', message: e.serverMessage };
    if (e instanceof ApiError && (e.status === 400 || e.status === 422))
      return { ok: false, reason: 'invalid', message: e.serverMessage };
    return { ok: false, reason: 'error', message: e instanceof Error ? e.message : String(e) };
  }
}

/** The item as it is now on the server (for the side-by-side view after a conflict). */
export const fetchItem = async (base: ApiBase, id: string) =>
  editorItemOf(await api<Item>('GET', `${base}/${id}?revision=draft`));
