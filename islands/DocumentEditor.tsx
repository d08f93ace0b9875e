import { useEffect, useRef, useState } from 'react';
import {
  applyChanges,
  chooseTemplateType,
  contentOf,
  editorItemOf,
  enhancementChanges,
  fieldsFromItem,
  initialFields,
  itemHref,
  payloadOf,
  previewBody,
  proposedChange,
  SPACES,
  spaceOfApi,
  type ApiBase,
  type EditorItem,
  type EditorKind,
  type Fields,
  type FormModel,
  type ItemVisibility,
  type ProposedChange,
  type TemplateType,
} from '../src/knowledge/shared';
import type { ServerSummary } from '../src/runbooks/shared';
import { formatDateTime } from '../src/ui/shared';
import { AiFieldButton } from './_lib/knowledge/editor/AiButton';
import { enhanceContent } from './_lib/knowledge/editor/ai';
import { BuildFormView } from './_lib/knowledge/editor/BuildFormView';
import { ChangeNoteField } from './_lib/knowledge/editor/ChangeNoteField';
import { ConflictBanner, TheirsPanel } from './_lib/knowledge/editor/ConflictPanel';
import { ContentEditor } from './_lib/knowledge/editor/ContentEditor';
import { draftKey, draftStore, saveOnLeave, warnBeforeLeaving } from './_lib/knowledge/editor/drafts';
import { HowToFormView } from './_lib/knowledge/editor/HowToFormView';
import { TextField } from './_lib/knowledge/editor/ListField';
import { Preview } from './_lib/knowledge/editor/Preview';
import { ProposalPanel } from './_lib/knowledge/editor/ProposalPanel';
import { saveItem } from './_lib/knowledge/editor/save';
import { onSaveShortcut } from './_lib/knowledge/editor/save-shortcut';
import { useBelowPageHeader } from './_lib/knowledge/editor/sticky';
import { SettingsPanel } from './_lib/knowledge/editor/SettingsPanel';
import { ShareDialog } from './_lib/knowledge/ShareDialog';
import { VersionHistory } from './_lib/knowledge/VersionHistory';
import { toast } from './_lib/toast';

export type DocumentEditorProps = {
  base: ApiBase;
  kind: EditorKind;
  /** Where Cancel and Save lead. */
  listUrl: string;
  item: EditorItem | null;
  /** The user's saved timezone, for the times the editor shows. */
  timeZone: string;
  /** Settings › Auto-save documents: keep an unsaved draft in this browser (on), or warn before leaving (off). */
  autoSave: boolean;
  /** Present when the user may share this item (its owner or an admin): its visibility, for the Share dialog. */
  sharing?: { visibility: ItemVisibility };
  /** A new item created from a server (its page's "New runbook" / "Create build document"): fields to start with, and the server to link on save. */
  prefill?: { fields: Partial<Fields>; servers: ServerSummary[] };
};

/** The document editor: fields, markdown or form content, Preview, AI, images, drafts, versions and conflicts. */
export default function DocumentEditor(props: DocumentEditorProps) {
  const { base, kind, listUrl, item, timeZone, autoSave, sharing } = props;
  const space = spaceOfApi(base);
  // One store for the editor's life: an island's props never change after hydration.
  const [drafts] = useState(() => draftStore<Fields>(draftKey(base, item?.id ?? null, kind), autoSave));
  const [fields, setFields] = useState<Fields>(() => initialFields(item, kind));
  const [version, setVersion] = useState<number | null>(item?.version ?? null);
  const [mode, setMode] = useState<'edit' | 'preview'>('edit');
  const [revision, setRevision] = useState(0);
  const [saving, setSaving] = useState(false);
  const [enhancing, setEnhancing] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const [latest, setLatest] = useState<EditorItem | null>(null);
  const [restoredDraft, setRestoredDraft] = useState<string | null>(null);
  const [changeNote, setChangeNote] = useState('');
  /** An AI proposal waiting for Accept or Discard. */
  const [proposal, setProposal] = useState<ProposedChange[] | null>(null);
  /** The fields before the last accepted proposal, for Undo (until the next edit). */
  const [beforeAccept, setBeforeAccept] = useState<Fields | null>(null);
  const dirty = useRef(false);
  const root = useRef<HTMLDivElement>(null);
  useBelowPageHeader(root);
  const pristine = useRef(initialFields(null, kind).content);

  // A draft left by an earlier visit (applied after hydration, so the server HTML matches); none with auto-save off.
  // biome-ignore lint/correctness/useExhaustiveDependencies: restores the stored draft once, on mount
  useEffect(() => {
    const draft = drafts.load();
    if (!draft) return;
    setFields(draft.fields);
    if (item && draft.baseVersion) setVersion(draft.baseVersion);
    setRevision((r) => r + 1);
    setRestoredDraft(draft.savedAt);
    dirty.current = true;
  }, []);

  const writeDraft = () =>
    dirty.current && drafts.save({ fields, baseVersion: version, savedAt: new Date().toISOString() });
  // The latest render's, for the listeners below that are attached once.
  const handlers = useRef({ writeDraft, save: () => {} });

  // biome-ignore lint/correctness/useExhaustiveDependencies: writeDraft is this render's; the timer restarts on each change
  useEffect(() => {
    if (!dirty.current) return;
    const t = setTimeout(writeDraft, 250);
    return () => clearTimeout(t);
  }, [fields, version, drafts]);

  // What was typed since the last debounced write is kept when the page is left or hidden.
  useEffect(() => saveOnLeave(() => handlers.current.writeDraft()), []);
  useEffect(() => onSaveShortcut(() => handlers.current.save()), []);

  // With auto-save off nothing keeps the changes, so leaving with unsaved ones asks first.
  useEffect(() => (autoSave ? undefined : warnBeforeLeaving(() => dirty.current)), [autoSave]);

  const change = (patch: Partial<Fields> | ((f: Fields) => Fields)) => {
    dirty.current = true;
    setBeforeAccept(null);
    setFields((f) => (typeof patch === 'function' ? patch(f) : { ...f, ...patch }));
  };
  const replace = (next: Fields) => {
    change(() => next);
    setRevision((r) => r + 1);
  };
  const setForm = (form: FormModel) => change((f) => ({ ...f, form, content: contentOf(form, f.title) }));
  const setTitle = (title: string) =>
    change((f) => ({ ...f, title, content: f.form ? contentOf(f.form, title) : f.content }));
  const addImages = (paths: string[]) =>
    change((f) => ({ ...f, attachedImages: [...new Set([...f.attachedImages, ...paths])] }));
  const onTemplateType = (type: TemplateType | null) => {
    const empty = !fields.content.trim() || fields.content === pristine.current;
    const next = chooseTemplateType(fields, type, !item, empty);
    if (next.content !== fields.content) replace(next);
    else change(next);
  };

  function loadItem(saved: EditorItem) {
    drafts.clear();
    dirty.current = false;
    setFields(fieldsFromItem(saved));
    setVersion(saved.version);
    setRevision((r) => r + 1);
    setConflict(null);
    setLatest(null);
    setRestoredDraft(null);
    setProposal(null);
    setBeforeAccept(null);
  }

  function discardDraft() {
    if (item) return loadItem(item);
    drafts.clear();
    dirty.current = false;
    setFields(initialFields(null, kind));
    setRevision((r) => r + 1);
    setRestoredDraft(null);
  }

  /** Cancel discards the changes: no draft kept, no leave warning. */
  function cancel() {
    drafts.clear();
    dirty.current = false;
  }

  async function save() {
    setSaving(true);
    const payload = {
      ...payloadOf(fields, item ? version : null),
      ...(item && changeNote.trim() ? { changeNote } : {}),
    };
    const result = await saveItem(base, item?.id ?? null, payload);
    setSaving(false);
    if (result.ok) {
      drafts.clear();
      dirty.current = false;
      toast('Success', `${fields.title.trim()} was saved (version ${result.item.version}).`);
      const next = itemHref(space, result.item.id, result.item.title);
      setTimeout(() => window.location.assign(next), 600);
    } else if (result.reason === 'conflict') {
      setConflict(result.message);
    } else if (result.reason === 'refused') {
      toast('Not published', result.message, 'error');
    } else if (result.reason === 'invalid') {
      toast('Validation Error', 'Please check your input and try again.', 'error');
    } else {
      toast('Error', SPACES[space].messages.saveFailed, 'error');
    }
  }

  async function enhance() {
    setEnhancing(true);
    const result = await enhanceContent(fields.title, fields.content, fields.category);
    setEnhancing(false);
    if (!result) return;
    const changes = enhancementChanges(fields, result);
    if (changes.length) setProposal(changes);
    else toast('No Enhancement', "AI couldn't improve the content further.", 'info');
  }

  /** A field AI button's text, proposed beside the field's current text. */
  const proposeField = (field: 'title' | 'excerpt' | 'purpose') => (text: string) => {
    const c = proposedChange(fields, field, text);
    if (c) setProposal([c]);
  };

  function acceptProposal() {
    if (!proposal) return;
    const before = fields;
    replace(applyChanges(fields, proposal));
    setBeforeAccept(before);
    setProposal(null);
    toast('Content Enhanced', 'The AI proposal was applied.');
  }

  function undoAccept() {
    if (!beforeAccept) return;
    replace(beforeAccept);
    setBeforeAccept(null);
  }

  const canSave = !!fields.title.trim() && !!fields.content.trim() && !saving;
  handlers.current = { writeDraft, save: () => canSave && void save() };
  const form = fields.form;
  return (
    <div className="editor" ref={root}>
      <div className="row editor-bar">
        <div className="tabs" role="tablist" aria-label="Editor mode">
          <button
            type="button"
            role="tab"
            className="tab"
            aria-selected={mode === 'edit'}
            onClick={() => setMode('edit')}
          >
            Edit
          </button>
          <button
            type="button"
            role="tab"
            className="tab"
            aria-selected={mode === 'preview'}
            onClick={() => setMode('preview')}
          >
            Preview
          </button>
        </div>
        <span className="spacer" />
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          disabled={enhancing || (form?.kind !== 'howto' && !fields.content.trim())}
          onClick={() => void enhance()}
        >
          {enhancing ? 'Enhancing…' : 'Enhance with AI'}
        </button>
        {item && (
          <VersionHistory
            base={base}
            id={item.id}
            currentVersion={version ?? item.version}
            onRestored={(restored) => loadItem(editorItemOf(restored))}
          />
        )}
        {item && sharing && (
          <ShareDialog base={base} id={item.id} visibility={sharing.visibility} timeZone={timeZone} />
        )}
        <a className="btn btn--secondary btn--sm" href={listUrl} onClick={cancel}>
          Cancel
        </a>
        <button type="button" className="btn btn--primary btn--sm" disabled={!canSave} onClick={() => void save()}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
      {restoredDraft && (
        <div className="banner banner--info row" role="status">
          <span>Restored your unsaved draft from {formatDateTime(restoredDraft, timeZone)}.</span>
          <span className="spacer" />
          <button type="button" className="btn btn--ghost btn--sm" onClick={discardDraft}>
            Discard draft
          </button>
        </div>
      )}
      {proposal && <ProposalPanel changes={proposal} onAccept={acceptProposal} onDiscard={() => setProposal(null)} />}
      {beforeAccept && (
        <div className="banner banner--info row" role="status">
          <span>The AI proposal was applied.</span>
          <span className="spacer" />
          <button type="button" className="btn btn--ghost btn--sm" onClick={undoAccept}>
            Undo
          </button>
        </div>
      )}
      {conflict && item && <ConflictBanner base={base} id={item.id} message={conflict} onOpen={setLatest} />}
      <div className={`editor-body${latest ? ' editor-body--conflict' : ''}`}>
        <div className="stack editor-main">
          {mode === 'edit' ? (
            <>
              <TextField
                label="Title"
                value={fields.title}
                onChange={setTitle}
                action={
                  <AiFieldButton
                    field="title"
                    value={fields.title}
                    category={fields.category}
                    onEnhanced={proposeField('title')}
                  />
                }
              />
              <TextField
                label="Excerpt"
                value={fields.excerpt}
                onChange={(excerpt) => change({ excerpt })}
                multiline
                action={
                  <AiFieldButton
                    field="excerpt"
                    value={fields.excerpt}
                    category={fields.category}
                    onEnhanced={proposeField('excerpt')}
                  />
                }
              />
              {form?.kind === 'howto' ? (
                <HowToFormView
                  form={form}
                  onChange={setForm}
                  onImages={addImages}
                  purposeAction={
                    <AiFieldButton
                      field="purpose"
                      value={form.purpose}
                      category={fields.category}
                      onEnhanced={proposeField('purpose')}
                    />
                  }
                />
              ) : form?.kind === 'build' ? (
                <BuildFormView form={form} onChange={setForm} onImages={addImages} />
              ) : (
                <ContentEditor
                  value={fields.content}
                  revision={revision}
                  onChange={(content) => change({ content })}
                  onImages={addImages}
                />
              )}
              {item && <ChangeNoteField value={changeNote} onChange={setChangeNote} />}
            </>
          ) : (
            <article className="stack">
              <h2 className="editor-preview__title">{fields.title || 'Untitled'}</h2>
              {fields.excerpt && <p className="muted">{fields.excerpt}</p>}
              <Preview content={previewBody(fields.content, fields.title)} />
            </article>
          )}
        </div>
        {latest && (
          <TheirsPanel
            latest={latest}
            onClose={() => setLatest(null)}
            onKeepMine={() => {
              setVersion(latest.version);
              setConflict(null);
              setLatest(null);
              toast('Your changes are kept', 'Save again to replace the newer version with yours.', 'info');
            }}
            onTakeTheirs={() => loadItem(latest)}
          />
        )}
        <SettingsPanel
          fields={fields}
          types={SPACES[space].templateTypes}
          set={change}
          onTemplateType={onTemplateType}
        />
      </div>
    </div>
  );
}
