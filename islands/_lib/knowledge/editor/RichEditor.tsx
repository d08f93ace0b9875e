/**
 * The rich markdown editor (@mdxeditor/editor) with its toolbar. Loaded only with import() from ContentEditor, so
 * its code (and style.css) sit in their own chunk that loads after the editor page has painted.
 */
import '@mdxeditor/editor/style.css';
// Already loaded by every island; importing it here too keeps all of React DOM in the one shared chunk
// (otherwise esbuild splits react-dom's index, which this chunk also uses, into a chunk of its own).
import 'react-dom/client';
import {
  codeBlockPlugin,
  headingsPlugin,
  imagePlugin,
  linkPlugin,
  listsPlugin,
  MDXEditor,
  markdownShortcutPlugin,
  quotePlugin,
  thematicBreakPlugin,
  type MDXEditorMethods,
} from '@mdxeditor/editor';
import type { RefObject } from 'react';
import { plainCodeBlock } from './PlainCodeBlock';
import { richToolbarPlugin } from './RichToolbar';

export interface RichEditorProps {
  markdown: string;
  onChange: (markdown: string) => void;
  onError: (message: string) => void;
  methods: RefObject<MDXEditorMethods | null>;
  dark?: boolean;
  /** The toolbar's Table button. */
  onTable: () => void;
}

const plugins = (onTable: () => void) => [
  richToolbarPlugin({ onTable }),
  headingsPlugin(),
  listsPlugin(),
  quotePlugin(),
  thematicBreakPlugin(),
  linkPlugin(),
  imagePlugin(),
  codeBlockPlugin({ codeBlockEditorDescriptors: [plainCodeBlock] }),
  markdownShortcutPlugin(),
];

export default function RichEditor({ markdown, onChange, onError, methods, dark, onTable }: RichEditorProps) {
  return (
    <MDXEditor
      ref={methods}
      className={dark ? 'dark-theme editor-rich' : 'editor-rich'}
      contentEditableClassName="prose editor-rich__content"
      markdown={markdown}
      plugins={plugins(onTable)}
      placeholder="Start writing…"
      onChange={(md, initial) => {
        if (!initial) onChange(md);
      }}
      onError={({ error }) => onError(error)}
    />
  );
}
