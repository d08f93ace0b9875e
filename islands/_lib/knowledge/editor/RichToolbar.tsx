import { $createHeadingNode, $createQuoteNode, type HeadingTagType } from '@lexical/rich-text';
import {
  activeEditor$,
  addTopAreaChild$,
  applyFormat$,
  applyListType$,
  convertSelectionToNode$,
  currentBlockType$,
  currentFormat$,
  currentListType$,
  editorInTable$,
  iconComponentFor$,
  insertCodeBlock$,
  IS_BOLD,
  IS_ITALIC,
  openNewImageDialog$,
  realmPlugin,
  useCellValues,
  usePublisher,
} from '@mdxeditor/editor';
import { $createParagraphNode, REDO_COMMAND, UNDO_COMMAND } from 'lexical';
import { useState, type ReactNode } from 'react';
import { LinkForm } from './LinkForm';

/**
 * The rich editor's toolbar: plain buttons and a native select driving mdxeditor's own actions. mdxeditor's toolbar
 * components, link dialog and table plugin are built on Radix (toolbar, select, popover, tooltips) and would add
 * about 40 KiB gzip to the route (budget: 380 KiB in all), so links have a small form of their own and a table is
 * inserted as markdown (see ContentEditor).
 */

const BLOCKS = [
  ['paragraph', 'Paragraph'],
  ['h1', 'Heading 1'],
  ['h2', 'Heading 2'],
  ['h3', 'Heading 3'],
  ['quote', 'Quote'],
] as const;

function ToolButton(props: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="editor-tool"
      title={props.label}
      aria-label={props.label}
      aria-pressed={props.pressed}
      disabled={props.disabled}
      // Keeps the editor's selection: a click on the toolbar must not move focus out of the text.
      onMouseDown={(e) => e.preventDefault()}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

function BlockSelect() {
  const [blockType, editor] = useCellValues(currentBlockType$, activeEditor$);
  const convert = usePublisher(convertSelectionToNode$);
  const choose = (value: string) => {
    if (value === 'paragraph') convert(() => $createParagraphNode());
    else if (value === 'quote') convert(() => $createQuoteNode());
    else convert(() => $createHeadingNode(value as HeadingTagType));
    editor?.focus(); // back to the text, where the caret was
  };
  return (
    <select
      className="editor-tool editor-tool--select"
      aria-label="Block type"
      value={BLOCKS.some(([v]) => v === blockType) ? blockType : 'paragraph'}
      onChange={(e) => choose(e.target.value)}
    >
      {BLOCKS.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </select>
  );
}

function Toolbar({ onTable }: { onTable: () => void }) {
  const [icon, editor, format, listType, inTable] = useCellValues(
    iconComponentFor$,
    activeEditor$,
    currentFormat$,
    currentListType$,
    editorInTable$,
  );
  const applyFormat = usePublisher(applyFormat$);
  const applyList = usePublisher(applyListType$);
  const [linking, setLinking] = useState(false);
  const openImage = usePublisher(openNewImageDialog$);
  const insertCode = usePublisher(insertCodeBlock$);
  const list = (type: 'bullet' | 'number') => applyList(listType === type ? '' : type);
  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Formatting">
      <ToolButton label="Undo" onClick={() => editor?.dispatchCommand(UNDO_COMMAND, undefined)}>
        {icon('undo')}
      </ToolButton>
      <ToolButton label="Redo" onClick={() => editor?.dispatchCommand(REDO_COMMAND, undefined)}>
        {icon('redo')}
      </ToolButton>
      <BlockSelect />
      <ToolButton label="Bold" pressed={(format & IS_BOLD) !== 0} onClick={() => applyFormat('bold')}>
        {icon('format_bold')}
      </ToolButton>
      <ToolButton label="Italic" pressed={(format & IS_ITALIC) !== 0} onClick={() => applyFormat('italic')}>
        {icon('format_italic')}
      </ToolButton>
      <ToolButton
        label="Bulleted list"
        pressed={listType === 'bullet'}
        disabled={inTable}
        onClick={() => list('bullet')}
      >
        {icon('format_list_bulleted')}
      </ToolButton>
      <ToolButton
        label="Numbered list"
        pressed={listType === 'number'}
        disabled={inTable}
        onClick={() => list('number')}
      >
        {icon('format_list_numbered')}
      </ToolButton>
      <ToolButton label="Link" pressed={linking} onClick={() => setLinking(!linking)}>
        {icon('link')}
      </ToolButton>
      <ToolButton label="Image" onClick={() => openImage()}>
        {icon('add_photo')}
      </ToolButton>
      <ToolButton label="Table" onClick={onTable}>
        {icon('table')}
      </ToolButton>
      <ToolButton label="Code block" onClick={() => insertCode({})}>
        {icon('frame_source')}
      </ToolButton>
      {linking && editor && <LinkForm editor={editor} onClose={() => setLinking(false)} />}
    </div>
  );
}

/** Puts the toolbar above the text; `onTable` is what the Table button does. */
export const richToolbarPlugin = realmPlugin<{ onTable: () => void }>({
  init(realm, params) {
    const onTable = params?.onTable ?? (() => {});
    realm.pub(addTopAreaChild$, () => <Toolbar onTable={onTable} />);
  },
});
