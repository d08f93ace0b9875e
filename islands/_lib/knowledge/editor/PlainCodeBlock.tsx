import { useCodeBlockEditorContext, type CodeBlockEditorDescriptor } from '@mdxeditor/editor';

/**
 * A fenced code block edited as plain text. mdxeditor's own (CodeMirror, with syntax highlighting) would add far more
 * than the editor route's JS budget allows, so code is a monospace textarea that keeps the block's language as written.
 */
function PlainCodeBlock({ code, language }: { code: string; language: string }) {
  const cb = useCodeBlockEditorContext();
  return (
    // Keys typed here belong to the code, not to the surrounding rich editor.
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops key events from reaching the outer editor
    <div className="editor-code" onKeyDown={(e) => e.nativeEvent.stopImmediatePropagation()}>
      <textarea
        className="textarea editor-code__text"
        aria-label={language ? `Code (${language})` : 'Code'}
        rows={Math.max(3, code.split('\n').length + 1)}
        spellCheck={false}
        defaultValue={code}
        onChange={(e) => cb.setCode(e.target.value)}
      />
    </div>
  );
}

/** Every fenced code block, whatever its language. */
export const plainCodeBlock: CodeBlockEditorDescriptor = {
  match: () => true,
  priority: 0,
  Editor: PlainCodeBlock,
};
