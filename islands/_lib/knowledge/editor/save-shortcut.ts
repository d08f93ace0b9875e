/**
 * Ctrl+S (⌘S on a Mac) calls `save` instead of the browser's "Save page as"; returns the undo. Listened for in the
 * capture phase, so it works from any field, also those that keep their keys to themselves (code blocks).
 */
export function onSaveShortcut(save: () => void): () => void {
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key.toLowerCase() !== 's' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    e.preventDefault();
    if (!e.repeat) save();
  };
  window.addEventListener('keydown', onKeyDown, true);
  return () => window.removeEventListener('keydown', onKeyDown, true);
}
