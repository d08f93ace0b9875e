import { kbTypeLabels, type KbType } from '../../../src/knowledge/labels';
import type { TemplateType } from '../../../src/knowledge/schemas';

/** What the editor edits: a plain document, or one of the four kinds of knowledge item. */
export type EditorKind = 'document' | KbType;

export const KIND_TEMPLATE: Record<EditorKind, TemplateType | null> = {
  document: null,
  'knowledge-base': null,
  'work-instruction': 'work_instruction',
  'how-to-guide': 'how_to_guide',
  'build-document': 'build_document',
};

/** Spec §3: default category on creation. */
export const KIND_CATEGORY: Record<EditorKind, string> = {
  document: '',
  'knowledge-base': '',
  'work-instruction': 'sop',
  'how-to-guide': 'how-to',
  'build-document': 'build',
};

const SUBTITLES: Record<EditorKind, [create: string, edit: string]> = {
  document: ['Write a new document or template', 'Update this document and keep its history'],
  'knowledge-base': ['Write a new knowledge base article', 'Update this knowledge base article'],
  'work-instruction': [
    'Write a standard operating procedure, step by step',
    'Update this standard operating procedure',
  ],
  'how-to-guide': ['Write a step-by-step guide with screenshots', 'Update this how-to guide'],
  'build-document': [
    'Record how a server is built, from prerequisites to sign-off',
    'Update this server build document',
  ],
};

/** Page title and subtitle of the editor (spec §2: "Create Document" / "Edit Document"; Create/Edit + kind). */
export function editorHeading(kind: EditorKind, isNew: boolean): { title: string; subtitle: string } {
  const verb = isNew ? 'Create' : 'Edit';
  const title = kind === 'document' ? `${verb} Document` : `${verb} ${kbTypeLabels[kind]}`;
  return { title, subtitle: SUBTITLES[kind][isNew ? 0 : 1] };
}
