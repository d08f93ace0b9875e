import { contentOf } from './form-markdown';
import { emptyForm, parseFormModel, type FormModel } from './form-model';
import { EDITOR_ITEM_FIELDS, OPTIONAL_TEXT_FIELDS, pick, type Item } from './item-fields';
import { formKindOf, ITEM_TYPES, type KbType, type TemplateType } from './item-types';
import { reviewIntervalPayload } from './review-interval';
import { skeletonFor } from './skeletons';

/** What the editor edits: a plain document, or one of the four kinds of knowledge item. */
export type EditorKind = 'document' | KbType;

/** Page title and subtitle of the editor (spec §2: "Create Document" / "Edit Document"; Create/Edit + kind). */
export function editorHeading(kind: EditorKind, isNew: boolean): { title: string; subtitle: string } {
  const verb = isNew ? 'Create' : 'Edit';
  if (kind === 'document') {
    const subtitle = isNew ? 'Write a new document or template' : 'Update this document and keep its history';
    return { title: `${verb} Document`, subtitle };
  }
  const type = ITEM_TYPES[kind];
  return { title: `${verb} ${type.label}`, subtitle: type.subtitles[isNew ? 0 : 1] };
}

/** The item as the page hands it to the island (JSON only): EDITOR_ITEM_FIELDS, its form model read. */
export type EditorItem = Omit<Pick<Item, (typeof EDITOR_ITEM_FIELDS)[number]>, 'formModel'> & {
  formModel: FormModel | null;
};

/** The editor's view of an API item. */
export const editorItemOf = (item: Item): EditorItem => ({
  ...pick(item, EDITOR_ITEM_FIELDS),
  formModel: parseFormModel(item.formModel),
});

type OptionalText = (typeof OPTIONAL_TEXT_FIELDS)[number];
const KEPT_FIELDS = ['tags', 'isPublished', 'isTemplate', 'templateType', 'attachedImages'] as const;

/** Everything the user edits: the editable fields, optional text as '' and the form model read. */
export type Fields = { title: string; content: string; form: FormModel | null; reviewInterval?: string } & Record<
  OptionalText,
  string
> &
  Pick<Item, (typeof KEPT_FIELDS)[number]>;

const textsOf = (read: (k: OptionalText) => string) =>
  Object.fromEntries(OPTIONAL_TEXT_FIELDS.map((k) => [k, read(k)])) as Record<OptionalText, string>;

/** The fields of an existing item, or of a new item of this kind (spec §3 default categories, §4 skeletons). */
export function initialFields(item: EditorItem | null, kind: EditorKind): Fields {
  if (item) {
    return {
      ...pick(item, ['title', 'content', ...KEPT_FIELDS]),
      ...textsOf((k) => item[k] ?? ''),
      form: parseFormModel(item.formModel),
      reviewInterval: item.reviewIntervalDays ? String(item.reviewIntervalDays) : '',
    };
  }
  const type = kind === 'document' ? null : ITEM_TYPES[kind];
  const templateType = type?.templateType ?? null;
  const form = type?.form ? emptyForm(type.form) : null;
  return {
    ...textsOf(() => ''),
    title: '',
    category: type?.category ?? '',
    tags: [],
    isPublished: false,
    isTemplate: false,
    templateType,
    attachedImages: [],
    content: skeletonFor(templateType),
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
  const kind = formKindOf(type);
  const form = kind ? emptyForm(kind) : null;
  return { ...next, isTemplate: true, form, content: form ? contentOf(form, fields.title) : skeletonFor(type) };
}

const orNull = (s: string) => (s.trim() ? s.trim() : null);

/** The longest change note an author may give a save (the version's change log in Version History). */
export const CHANGE_NOTE_MAX = 500;

/** A new item's fields with what its page pre-filled (a runbook made from a server); a form's markdown made from it. */
export function prefilledFields(kind: EditorKind, prefill: Partial<Fields> | undefined): Fields {
  const fields = { ...initialFields(null, kind), ...prefill };
  if (!prefill?.form || prefill.content !== undefined) return fields;
  return { ...fields, content: contentOf(prefill.form, fields.title) };
}

/** The POST/PUT body (documentInput), with the version the edit is based on and the linked servers when they changed. */
export function payloadOf(f: Fields, version: number | null, serverIds?: string[]) {
  return {
    ...pick(f, ['content', ...KEPT_FIELDS]),
    ...(Object.fromEntries(OPTIONAL_TEXT_FIELDS.map((k) => [k, orNull(f[k])])) as Record<OptionalText, string | null>),
    title: f.title.trim(),
    formModel: f.form,
    ...reviewIntervalPayload(f.reviewInterval, !version),
    ...(version ? { version } : {}),
    ...(serverIds ? { serverIds } : {}),
  };
}

/** Fields from a saved or restored item. */
export const fieldsFromItem = (item: EditorItem) => initialFields(item, 'document');

/**
 * The content as Preview shows it below the title: without a first "# Title" heading that repeats the title (how-to
 * and build forms write one, and so do many articles), so the title is not shown twice.
 */
export function previewBody(content: string, title: string): string {
  const first = /^\s*#[ \t]+(.*?)[ \t#]*(?:\r?\n|$)/.exec(content);
  if (!first || !title.trim() || first[1].trim() !== title.trim()) return content;
  return content.slice(first[0].length).replace(/^\s*\n/, '');
}
