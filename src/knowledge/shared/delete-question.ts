/**
 * Spec: Are you sure you want to delete "{title}"? This action cannot be undone. Those who may restore deleted
 * items (knowledge.restore) are told the truth instead: they can. Shared by the server's dialog and the preview island.
 */
export const deleteQuestion = (title: string, canRestore: boolean) =>
  canRestore
    ? `Are you sure you want to delete "${title}"? Admins can restore it from Deleted items.`
    : `Are you sure you want to delete "${title}"? This action cannot be undone.`;
