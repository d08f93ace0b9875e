import type { Json } from '../../index';
import type { ApiBase, Item, TemplateType } from '../../../src/knowledge/schemas';
import { emptyBuild, emptyHowTo, parseFormModel, type FormModel } from './forms';
import { KIND_CATEGORY, KIND_TEMPLATE, type EditorKind } from './kinds';
import { buildMarkdown, howToMarkdown } from './markdown';
import { skeletonFor } from './skeletons';

/** The item as the page hands it to the island (JSON only): the API's item less what the editor does not use. */
export type EditorItem = Omit<Item, 'authorId' | 'createdAt' | 'author' | 'formModel'> & { formModel: Json | null };

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
};

/** Everything the user edits. */
export type Fields = {
  title: string;
  excerpt: string;
  technology: string;
  domain: string;
  category: string;
  tags: string[];
  isPublished: boolean;
  isTemplate: boolean;
  templateType: TemplateType | null;
  attachedImages: string[];
  content: string;
  form: FormModel | null;
};

/** Content generated from a form (how-to and build items). */
export function contentOf(form: FormModel, title: string): string {
  return form.kind === 'howto' ? howToMarkdown(form, title) : buildMarkdown(form, title);
}

/** The fields of an existing item, or of a new item of this kind (spec §3 default categories, §4 skeletons). */
export function initialFields(item: EditorItem | null, kind: EditorKind): Fields {
  if (item) {
    return {
      title: item.title,
      excerpt: item.excerpt ?? '',
      technology: item.technology ?? '',
      domain: item.domain ?? '',
      category: item.category ?? '',
      tags: item.tags,
      isPublished: item.isPublished,
      isTemplate: item.isTemplate,
      templateType: item.templateType,
      attachedImages: item.attachedImages,
      content: item.content,
      form: parseFormModel(item.formModel),
    };
  }
  const templateType = KIND_TEMPLATE[kind];
  const form = kind === 'how-to-guide' ? emptyHowTo() : kind === 'build-document' ? emptyBuild() : null;
  return {
    title: '',
    excerpt: '',
    technology: '',
    domain: '',
    category: KIND_CATEGORY[kind],
    tags: [],
    isPublished: false,
    isTemplate: false,
    templateType,
    attachedImages: [],
    content: form ? contentOf(form, '') : kind === 'work-instruction' ? skeletonFor('work_instruction') : '',
    form,
  };
}

/** Choosing a template type: on a new, empty document it fills a skeleton and marks it a template (spec §4). */
export function chooseTemplateType(
  fields: Fields,
  type: TemplateType | null,
  isNew: boolean,
  pristineContent: boolean,
): Fields {
  const next = { ...fields, templateType: type };
  if (!isNew || !type || !pristineContent) return next;
  const form = type === 'how_to_guide' ? emptyHowTo() : type === 'build_document' ? emptyBuild() : null;
  return { ...next, isTemplate: true, form, content: form ? contentOf(form, fields.title) : skeletonFor(type) };
}

const orNull = (s: string) => (s.trim() ? s.trim() : null);

/** The POST/PUT body (documentInput), with the version the edit is based on. */
export function payloadOf(f: Fields, version: number | null) {
  return {
    title: f.title.trim(),
    content: f.content,
    excerpt: orNull(f.excerpt),
    technology: orNull(f.technology),
    domain: orNull(f.domain),
    category: orNull(f.category),
    tags: f.tags,
    isPublished: f.isPublished,
    isTemplate: f.isTemplate,
    templateType: f.templateType,
    attachedImages: f.attachedImages,
    formModel: (f.form as unknown as Record<string, unknown>) ?? null,
    ...(version ? { version } : {}),
  };
}

/** Fields from a saved/restored item, keeping what the server does not store the same way. */
export const fieldsFromItem = (item: EditorItem) => initialFields(item, 'document');
