import { $createLinkNode, TOGGLE_LINK_COMMAND } from '@lexical/link';
import { $createTextNode, $getSelection, $isRangeSelection, type LexicalEditor } from 'lexical';
import { useState } from 'react';

/**
 * The toolbar's link form: links the selected text to a URL (or inserts the URL as a link where nothing is selected),
 * or removes the link. The editor keeps its selection while the URL is typed here.
 */
export function LinkForm({ editor, onClose }: { editor: LexicalEditor; onClose: () => void }) {
  const [url, setUrl] = useState('https://');
  const apply = () => {
    const href = url.trim();
    if (!href) return;
    editor.update(() => {
      const selection = $getSelection();
      if ($isRangeSelection(selection) && selection.isCollapsed()) {
        selection.insertNodes([$createLinkNode(href).append($createTextNode(href))]);
      }
    });
    editor.dispatchCommand(TOGGLE_LINK_COMMAND, href);
    onClose();
  };
  return (
    <form
      className="editor-link-form"
      aria-label="Link"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <input
        className="input input--sm"
        aria-label="Link URL"
        type="url"
        value={url}
        // biome-ignore lint/a11y/noAutofocus: the form opens on the user's click to type the URL
        autoFocus
        onChange={(e) => setUrl(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      />
      <button type="submit" className="btn btn--primary btn--sm">
        Apply
      </button>
      <button
        type="button"
        className="btn btn--ghost btn--sm"
        onClick={() => {
          editor.dispatchCommand(TOGGLE_LINK_COMMAND, null);
          onClose();
        }}
      >
        Remove link
      </button>
      <button type="button" className="btn btn--ghost btn--sm" onClick={onClose}>
        Cancel
      </button>
    </form>
  );
}
