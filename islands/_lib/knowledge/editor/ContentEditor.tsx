import { useEffect, useRef, useState, type ComponentType } from 'react';
import type { MDXEditorMethods } from '@mdxeditor/editor';
import { DropZone } from './DropZone';
import { imageMarkdown } from '../../../../src/knowledge/shared';
import type { RichEditorProps } from './RichEditor';

/**
 * Content the rich editor would not keep as written or cannot show (HTML, comments such as image sizes,
 * tables: its table plugin is left out to keep the route light): edit it as markdown.
 */
export const needsSource = (markdown: string) => /<!--|<\/?[a-z][^>]*>|^\s*\|.*\|\s*$/im.test(markdown);

/** What the toolbar's Table button inserts: a 3×3 markdown table. */
export const TABLE_MARKDOWN = '| Column 1 | Column 2 | Column 3 |\n| --- | --- | --- |\n|  |  |  |\n|  |  |  |';
/** Marks the caret in the rich text, so the table goes where the caret was (letters only: nothing to escape). */
const TABLE_MARK = 'opshubtablegoeshere';

let richModule: Promise<{ default: ComponentType<RichEditorProps> }> | null = null;
/** The rich editor's chunk, fetched once and after first paint. */
const loadRich = () => (richModule ??= import('./RichEditor'));

const isDark = () =>
  document.documentElement.dataset.theme === 'dark' ||
  (!document.documentElement.dataset.theme && window.matchMedia?.('(prefers-color-scheme: dark)').matches);

interface Props {
  value: string;
  onChange: (markdown: string) => void;
  onImages: (paths: string[]) => void;
  /** Bumped when the value is replaced from outside (restore, draft, AI), so the rich editor reloads it. */
  revision: number;
}

/**
 * The markdown content: a plain textarea until the rich editor (@mdxeditor/editor) has loaded, and
 * whenever "Markdown" is chosen or the content is not safe to edit rich. Images pasted or dropped are
 * uploaded and inserted as markdown images.
 */
export function ContentEditor({ value, onChange, onImages, revision }: Props) {
  const [Rich, setRich] = useState<ComponentType<RichEditorProps> | null>(null);
  const [mode, setMode] = useState<'rich' | 'source'>('source');
  const [note, setNote] = useState<string | null>(null);
  const methods = useRef<MDXEditorMethods | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const userPicked = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: load the rich editor once; value picks its mode
  useEffect(() => {
    let live = true;
    loadRich()
      .then((mod) => {
        if (!live) return;
        setRich(() => mod.default);
        if (!userPicked.current && !needsSource(value)) setMode('rich');
      })
      .catch(() => setNote('The rich editor could not be loaded; you can keep editing the markdown.'));
    return () => {
      live = false;
    };
  }, []);

  function insert(paths: string[]) {
    onImages(paths);
    const md = paths.map((p) => imageMarkdown(p, 'screenshot')).join('\n\n');
    if (mode === 'rich' && Rich && methods.current) {
      methods.current.insertMarkdown(md);
      return;
    }
    const el = textarea.current;
    const at = el ? el.selectionEnd : value.length;
    const before = value.slice(0, at);
    const after = value.slice(at);
    const pad = before && !before.endsWith('\n\n') ? (before.endsWith('\n') ? '\n' : '\n\n') : '';
    onChange(`${before}${pad}${md}\n\n${after}`);
  }

  /**
   * Table: the rich view cannot show tables, so a mark is put at the caret; when the rich editor reports it (its
   * changes arrive after the update), the mark becomes the table and the Markdown view is shown.
   */
  const tablePending = useRef(false);
  function insertTable() {
    tablePending.current = true;
    methods.current?.insertMarkdown(TABLE_MARK);
  }
  const onTable = useRef(insertTable);
  onTable.current = insertTable;

  function richChange(markdown: string) {
    if (!tablePending.current || !markdown.includes(TABLE_MARK)) return onChange(markdown);
    tablePending.current = false;
    userPicked.current = true;
    setMode('source');
    setNote('Tables are edited in the Markdown view.');
    onChange(markdown.replace(TABLE_MARK, `\n\n${TABLE_MARKDOWN}\n\n`).replace(/\n{3,}/g, '\n\n'));
  }

  function pick(next: 'rich' | 'source') {
    userPicked.current = true;
    if (next === 'rich' && needsSource(value)) {
      setNote('This content contains HTML or image sizes that only the Markdown view keeps.');
      return;
    }
    setNote(null);
    setMode(next);
  }

  const showRich = mode === 'rich' && Rich;
  return (
    <div className="field editor-content">
      <div className="row">
        <span className="field__label" id="editor-content-label">
          Content
        </span>
        <span className="spacer" />
        <div className="tabs" role="tablist" aria-label="Content view">
          <button
            type="button"
            role="tab"
            className="tab"
            aria-selected={!!showRich}
            disabled={!Rich}
            onClick={() => pick('rich')}
          >
            Rich text
          </button>
          <button type="button" role="tab" className="tab" aria-selected={!showRich} onClick={() => pick('source')}>
            Markdown
          </button>
        </div>
      </div>
      {!Rich && !note && <p className="muted small">Loading editor...</p>}
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      <DropZone onUploaded={insert} label="Content drop area">
        {showRich ? (
          <Rich
            key={revision}
            markdown={value}
            onChange={richChange}
            methods={methods}
            dark={isDark()}
            onTable={() => onTable.current()}
            onError={() => {
              setMode('source');
              setNote('This content can only be edited as markdown.');
            }}
          />
        ) : (
          <textarea
            ref={textarea}
            className="textarea editor-source"
            aria-labelledby="editor-content-label"
            rows={18}
            value={value}
            placeholder="Write markdown here. Paste or drop images to upload them."
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </DropZone>
    </div>
  );
}
